package stophook

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
	"github.com/tribunal-cc/tribunal/internal/hook/transcript"
	"github.com/tribunal-cc/tribunal/internal/judging/stopjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// errNothingToJudge means the transcript and the final message are both
// empty by the time the judge looks.
var errNothingToJudge = errors.New("nothing to judge: no transcript and no final message")

// judge asks one standard judge about the job's turn and validates its
// answer. The model call gets the configured timeout, cut so that the
// verdict can still be recorded before the job's deadline. The Result is
// returned with most errors too, so that a failed call's cost still counts.
func judge(ctx context.Context, d Deps, j job) (stopjudge.Verdict, claude.Result, error) {
	model, escalate := j.Settings.Model, j.Settings.EscalateModel
	if !j.Provider.IsClaude() {
		// The cascade's models are Claude's: another family's client
		// judges once, with its own model.
		model, escalate = j.Provider.QualifiedModel(""), ""
	}
	cl := d.Claude
	if cl == nil {
		cl = claude.Exec{Path: j.ClaudePath, Env: d.Environ}
	}
	runner := provider.Deps{
		Claude: cl, Getenv: d.Getenv, Environ: d.Environ,
		CodexPath: j.CodexPath, GeminiPath: j.GeminiPath,
		OpenAI: provider.Delegate(j.SessionBin, d.Environ), Redact: d.Redact,
	}.Runner(j.Provider)
	in, leftOut, err := evidence(ctx, d, j)
	if err != nil {
		return stopjudge.Verdict{}, claude.Result{}, err
	}
	// The call gets what is left after a reserve for recording: the full
	// recordReserve when there is time, a third of what is left when the
	// budget is short.
	left := time.Until(j.Deadline)
	timeout := min(j.Settings.Timeout, left-min(recordReserve, left/3))
	if timeout <= 0 {
		return stopjudge.Verdict{}, claude.Result{}, fmt.Errorf("out of time: no time left for the judge before the deadline %s", j.Deadline.Format(time.RFC3339))
	}
	settle, err := reserve(d, j)
	if err != nil {
		return stopjudge.Verdict{}, claude.Result{}, err
	}
	settings := j.Settings
	settings.Model, settings.EscalateModel = model, escalate
	adv, res, err := stopjudge.Cascade(ctx, runner, settings, in, j.Worktree, timeout, func() time.Duration {
		left := time.Until(j.Deadline)
		return min(j.Settings.Timeout, left-min(recordReserve, left/3))
	})
	settle(res)
	adv.LeftOut = leftOut
	if err == nil {
		adv.Diff = prompts.StopDiff(in)
	}
	return adv, res, err
}

// withRedactor returns d with its Redact set (from the job's provider,
// when the caller gave none) and every sink of a judge — its warnings, the
// rewake's stderr — passing through it; the recorder applies it to the
// events, the stop file, the history record and the ledger.
func withRedactor(d Deps, j job) Deps {
	if d.Redact == nil {
		d.Redact = provider.Redactor([]provider.Spec{j.Provider}, d.Getenv, d.Environ)
	}
	red := d.Redact
	if !red.Active() {
		return d
	}
	wrap := func(f func(string, ...any)) func(string, ...any) {
		if f == nil {
			return nil
		}
		return func(format string, args ...any) { f("%s", red.String(fmt.Sprintf(format, args...))) }
	}
	d.Warnf, d.JudgeWarnf, d.Errorf, d.Warn = wrap(d.Warnf), wrap(d.JudgeWarnf), wrap(d.Errorf), red.Func(d.Warn)
	if d.Stderr != nil {
		d.Stderr = red.Writer(d.Stderr)
	}
	return d
}

// evidence gathers the grounded judge prompt's material from the state of
// the tree and the turn: the unified diff against HEAD, without the
// untracked files that look like secrets (returned, for the record), the
// user's last request and the final message. It is read when the judge runs, not when the hook ran; the
// few milliseconds between them cannot change what the fingerprint named
// without a newer Stop superseding this judge.
func evidence(ctx context.Context, d Deps, j job) (prompts.StopInput, []string, error) {
	var turn transcript.Exchange
	var tail []byte
	if hookio.IsRegularFile(j.TranscriptPath) {
		tail, _ = hookio.Tail(j.TranscriptPath, 1)
		turn, _ = transcript.Read(j.TranscriptPath)
	}
	if len(tail) == 0 && j.LastAssistantMessage == "" {
		return prompts.StopInput{}, nil, errNothingToJudge
	}
	reply := j.LastAssistantMessage
	if reply == "" {
		reply = turn.Reply
	}
	git := d.Git
	if git == nil {
		git = projectkey.ExecGit("git", d.Environ)
	}
	var changes []unidiff.File
	var leftOut []string
	st, err := gitstate.Status(ctx, git, j.Worktree)
	if err == nil {
		rule, _ := secretfiles.New(j.Settings.SecretFiles)
		st, leftOut = st.WithoutSecrets(j.Worktree, rule)
		changes, err = gitstate.Diff(ctx, git, j.Worktree, st)
	}
	if err != nil {
		// A judge without the diff still sees the turn; the record says
		// nothing of it, but the prompt has no changes section then.
		changes = nil
	}
	return prompts.StopInput{
		Changes:              changes,
		UserRequest:          turn.Request,
		LastAssistantMessage: reply,
		Dismissed:            dismissedFor(j, changes, d.Warn),
	}, leftOut, nil
}

// dismissedFor are the dismissals the Stop judge is told of (spec §8.4):
// the repository's shared file and the person's list, on the changed
// files or on no file (an advisory verdict's dismissed feedback). A file
// that cannot be read is a warning; the judge runs without it.
func dismissedFor(j job, changes []unidiff.File, warn func(string)) []prompts.Dismissed {
	set, err := dismiss.Load(dismiss.Sources{
		Shared:   filepath.Join(j.Worktree, filepath.FromSlash(dismiss.SharedFile)),
		Personal: filepath.Join(j.ProjectDir, records.DismissalsFile),
	})
	if err != nil && warn != nil {
		warn(err.Error())
	}
	files := make([]string, 0, 2*len(changes))
	for _, c := range changes {
		files = append(files, c.NewPath, c.OldPath)
	}
	return prompts.DismissedOf(set.Relevant(files, prompts.MaxDismissed))
}

// statusOf tells a cancelled judgement (a signal: superseded by a newer
// turn, or the hook killed) from a failed one (an error, a timeout).
func statusOf(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.Canceled) {
		return records.OutcomeCancelled
	}
	return records.OutcomeFailed
}

// failedBefore describes a judgement that failed before the judge was
// asked: nothing was spent.
func failedBefore(err error) records.Judgement {
	return records.Judgement{Outcome: records.OutcomeFailed, Error: err.Error()}
}

// failure describes a judgement that produced no verdict, with what it
// cost as far as it is known (a killed call reports no cost).
func failure(ctx context.Context, res claude.Result, err error, took time.Duration) records.Judgement {
	msg := err.Error()
	if errors.Is(ctx.Err(), context.Canceled) {
		msg = "stopped before the judge answered (superseded by a newer turn, or the judge was terminated)"
	}
	a := records.Judgement{Outcome: statusOf(ctx), Error: msg, CostUSD: res.CostUSD}
	ms := int(took / time.Millisecond)
	a.DurationMS = &ms
	return a
}
