package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Turn limits of the actor, which edits and runs commands, so it needs
// room; and the diff stat shown to the judges of a task run in place.
const (
	actorMaxTurns = 200
	diffStatBytes = 4000
)

// iterationState is what one iteration leaves for the next one and for the
// report: the round of judging (internal/judging) and the actor's change.
type iterationState struct {
	judging.Round
	// diff is the task's change relative to the starting snapshot after
	// this iteration's actor pass ("" in place, or when nothing changed).
	diff string
}

// iteration runs spec §7.4 for iteration n. A returned error aborts the task;
// a nil error with a blocked gate means "retry or exhaust".
func (r *runner) iteration(ctx context.Context, n int) (*iterationState, error) {
	it, err := r.newIteration(n)
	if err != nil {
		return nil, err
	}
	start := r.Now()
	defer func() { it.Report.DurationMS = int(r.Now().Sub(start) / time.Millisecond) }()
	dir, label := r.startIteration(it)
	output, err := r.runActor(ctx, it, dir, label)
	if err != nil {
		return it, err
	}
	it.ActorOutput = output
	return it, r.judge(ctx, it, dir, label)
}

// newIteration mints iteration n's id.
func (r *runner) newIteration(n int) (*iterationState, error) {
	iterID, err := r.newID()
	if err != nil {
		return nil, err
	}
	return &iterationState{Round: judging.Round{Report: judging.IterationReport{Number: n, IterationID: iterID}}}, nil
}

// startIteration emits the iteration's iteration.start and returns its
// artifact directory and its progress label.
func (r *runner) startIteration(it *iterationState) (dir, label string) {
	n := it.Report.Number
	trigger := "initial"
	if n > 0 {
		trigger = "gate_blocked"
	}
	r.emit(events.IterationStart{TaskID: r.taskID, IterationID: it.Report.IterationID, IterationNumber: n, Trigger: trigger})
	return records.IterationDir(it.Report.IterationID), fmt.Sprintf("[%d/%d]", n+1, r.params.MaxIterations)
}

// judge is spec §7.4 steps 3–7 for one iteration whose work is done:
// the engine's round over the task's directory, recorded in the task's
// store. Isolated, the judges see the task's own change (bounded); in
// place, today's diff stat of the whole tree.
func (r *runner) judge(ctx context.Context, it *iterationState, dir, label string) error {
	in := r.roundInput(it, dir, label)
	if r.task != nil {
		in.Isolated, in.Diff = true, judging.BoundedDiff(it.diff)
		in.Files = r.evaluatorFiles(ctx, it.diff)
		// The actor's own markers (its diff's added lines) do not
		// dismiss findings on its own work; the user's snapshot's do.
		r.untrustMarkers(unidiff.Parse([]byte(it.diff)))
	} else {
		in.DiffStat, _ = gitstate.DiffStat(ctx, r.Git, r.repo.WorktreeRoot, diffStatBytes)
		in.Files = r.evaluatorFiles(ctx, "")
	}
	return r.judgeRound(ctx, it, in)
}

// evaluatorFiles is the change the rubric's evaluators (spec §2.11) and
// a heuristic seat (§4.9) read: the given patch, or, with none, the
// working tree's change against HEAD — computed only when the rubric has
// an evaluator; a tree git cannot describe yields no files, and a
// warning.
func (r *runner) evaluatorFiles(ctx context.Context, patch string) []unidiff.File {
	if patch != "" {
		return unidiff.Parse([]byte(patch))
	}
	if r.jury.Evaluators() == 0 {
		return nil
	}
	st, err := gitstate.Status(ctx, r.Git, r.repo.WorktreeRoot)
	var files []unidiff.File
	if err == nil {
		files, err = gitstate.Diff(ctx, r.Git, r.repo.WorktreeRoot, st)
	}
	if err != nil {
		r.Warn(fmt.Sprintf("the evaluators see no change: %v", err))
	}
	return files
}

// roundInput is what the engine needs of this task for one round, but
// for the diff the judges are shown: the task, the directory the judges
// and command judges run in, where the round's artifacts go, the command
// judges and the task's earlier rounds.
func (r *runner) roundInput(it *iterationState, dir, label string) judging.Input {
	in := judging.Input{
		TaskID: r.taskID, Task: r.opts.Task, ActorOutput: it.ActorOutput, Dir: r.workDir,
		ArtifactDir: dir, Label: label, Commands: r.commands,
	}
	if c := refusedCommand(it.Report.Refused); c != nil {
		in.Extra = []records.Command{*c}
	}
	for i := range r.history {
		in.History = append(in.History, &r.history[i].Round)
	}
	r.withDismissals(&in)
	return in
}

// judgeRound is one round of judging in, recorded in the task's store
// (taskRecorder): the seam between the loop and the engine, which a
// round without an actor (JudgeChange) uses too.
func (r *runner) judgeRound(ctx context.Context, it *iterationState, in judging.Input) error {
	return r.jury.Judge(ctx, in, &it.Round, taskRecorder{r})
}

// runActor runs the Actor, retrying a failed attempt once (spec §7.8).
func (r *runner) runActor(ctx context.Context, it *iterationState, dir, label string) (string, error) {
	iterID := it.Report.IterationID
	n := it.Report.Number
	r.emit(events.ActorStart{TaskID: r.taskID, IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel})
	agent, _ := prompts.Agent(prompts.ActorAgent)
	prompt := prompts.ActorPrompt(prompts.ActorInput{Task: r.opts.Task, Criteria: r.jury.Criteria(), Digest: r.digest()})
	before := ""
	if r.task == nil {
		before = r.treeFingerprint(ctx)
	}
	start := r.Now()
	var (
		res     claude.Result
		lastErr error
	)
	for attempt := 1; attempt <= 2; attempt++ {
		if err := r.budgetAllows("actor", 1); err != nil {
			lastErr = err
			break
		}
		r.progress("%s actor working (%s)…", label, judging.ModelName(r.params.ActorModel))
		stop := r.longPhase(label, "waiting for the actor")
		call := r.actorCall(prompt, agent)
		seq := it.NextCall()
		res, lastErr = r.Claude.Run(ctx, call)
		stop()
		r.write(records.CallPath(dir, seq, "actor"), judging.CallRecord(provider.Spec{}, records.CallMeta{Role: "actor", Attempt: attempt}, call, res, lastErr))
		r.addCost("actor", res)
		if lastErr == nil && strings.TrimSpace(res.Text) == "" {
			lastErr = errors.New("the actor returned no final message")
		}
		if lastErr == nil || ctx.Err() != nil || isBudget(lastErr) {
			break
		}
		r.progress("%s actor failed (%v)%s", label, lastErr, map[bool]string{true: "; retrying once", false: ""}[attempt == 1])
	}
	duration := int(r.Now().Sub(start) / time.Millisecond)
	done := events.ActorComplete{
		TaskID: r.taskID, Success: lastErr == nil, DurationMS: events.Ptr(duration),
		IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel,
	}
	it.Report.Actor = judging.ActorReport{DurationMS: duration, CostUSD: res.CostUSD}
	if lastErr != nil {
		r.emit(done, judging.CostOpts(res)...)
		it.Report.Actor.Error = lastErr.Error()
		if ctx.Err() != nil {
			return "", fmt.Errorf("%w during the actor", ErrInterrupted)
		}
		if isBudget(lastErr) {
			return "", lastErr
		}
		return "", fmt.Errorf("the actor failed twice: %w", lastErr)
	}
	done.ArtifactKind = "message"
	if r.task != nil {
		diff, changed, err := r.recordChange(ctx, it, dir)
		if err != nil {
			it.Report.Actor.Error = err.Error()
			r.emit(events.ActorComplete{TaskID: r.taskID, Success: false, DurationMS: events.Ptr(duration),
				IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel}, judging.CostOpts(res)...)
			return "", fmt.Errorf("recording the actor's change: %w", err)
		}
		it.diff = diff
		if changed {
			done.ArtifactKind = "patch"
		}
		r.noteActorState(ctx)
	} else if after := r.treeFingerprint(ctx); before != "" && after != "" && before != after {
		done.ArtifactKind = "patch"
	}
	it.Report.Actor.ArtifactKind = done.ArtifactKind
	r.storeErr(storeWriteText(r.taskDir, filepath.Join(dir, records.ActorFile), res.Text+"\n", r.Redact))
	r.emit(done, judging.CostOpts(res)...)
	r.progress("%s actor done in %s (%s)", label, time.Duration(duration)*time.Millisecond, done.ArtifactKind)
	return res.Text, nil
}

// actorCall is the actor's model call: it edits the work directory
// without asking, within the actor's turn, token and time limits.
func (r *runner) actorCall(prompt string, agent prompts.AgentDef) claude.Call {
	return claude.Call{
		Role: "actor", Prompt: prompt, SystemPrompt: agent.Body,
		SystemPromptMode: claude.AppendSystemPrompt, Model: r.params.ActorModel,
		Tools: agent.Tools, AllowedTools: agent.Tools, PermissionMode: "acceptEdits",
		MaxTurns: actorMaxTurns, MaxOutputTokens: r.params.ActorMaxTokens,
		Dir: r.workDir, Timeout: r.params.ActorTimeout,
		// The user's agent in the user's task tree: its settings apply.
		TrustTree: true,
	}
}

// treeFingerprint identifies the working tree's state, to tell whether the
// actor changed files ("patch") or only answered ("message"). "" when git
// cannot say.
func (r *runner) treeFingerprint(ctx context.Context) string {
	st, err := gitstate.Status(ctx, r.Git, r.repo.WorktreeRoot)
	if err != nil {
		return ""
	}
	fp, err := gitstate.Fingerprint(ctx, r.Git, r.repo.WorktreeRoot, st)
	if err != nil {
		return ""
	}
	return fp
}
