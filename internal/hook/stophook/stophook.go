// Package stophook is the Stop-hook advisory judge: after a turn it decides
// whether the tree state needs a verdict, has one judge give it (detached,
// or awaited in fix mode), records it, and never disturbs Claude Code.
package stophook

import (
	"context"
	"crypto/sha256"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// Byte budget of the transcript tail read for the fingerprint of a turn
// that only talked (skip_if_no_file_changes false).
const transcriptTailBytes = 30000

// HookBudget is the whole hook's time budget, below the 90 s timeout it is
// registered with in hooks/hooks.json: Claude Code kills a hook that
// overruns, silently, so every wait (locks, the judge in fix mode, the
// events log, the ledger) draws from this one budget instead.
const HookBudget = 85 * time.Second

// ExitRewake is fix mode's deliberate exit status: Claude Code hands the
// stderr of an asyncRewake Stop hook that exits 2 back to the model.
const ExitRewake = 2

// Deps is everything the hook touches outside its own memory.
type Deps struct {
	Getenv  func(string) string
	Environ []string // base environment for child processes
	Stdin   io.Reader
	// Stderr receives fix mode's rewake message, which Claude Code hands
	// to the model; the diagnostics go through Warnf and the others below.
	Stderr io.Writer
	Home   string
	Now    func() time.Time
	Rand   io.Reader
	// Args are the command-line arguments: none for the hook, JudgeCommand
	// and its arguments for a detached judge.
	Args []string
	// Self is the stop-gate executable, re-executed as the detached judge;
	// SelfName is the argv[0] it gets.
	Self     string
	SelfName string
	// Budget is the hook's time budget; zero means HookBudget.
	Budget time.Duration
	// Claude runs the judge; nil means a real child process located by
	// claude.Locate.
	Claude claude.Runner
	// Git runs git; nil means projectkey.ExecGit("git", Environ).
	Git projectkey.GitRunner
	// SessionBin is the tribunal-session executable, which makes the
	// hook's openai calls so that this binary links no HTTP client.
	SessionBin string
	// Redact scrubs the configured credentials from everything a judge
	// stores or prints; nil means it is built from the job's provider
	// (withRedactor) when a judge runs.
	Redact *redact.Redactor

	// The hook's diagnostics, one stderr line each, handed over as plain
	// text: the binary's output code adds the prefixes. Warnf is a problem
	// of the hook, JudgeWarnf one of the judge (detached or inline), Errorf
	// a misuse of the judge command, Warn a warning about the settings.
	// nil discards.
	Warnf      func(format string, args ...any)
	JudgeWarnf func(format string, args ...any)
	Errorf     func(format string, args ...any)
	Warn       func(string)

	// Signals returns a context that the termination signals (SIGTERM,
	// SIGINT, SIGHUP) cancel. It is called once there is work to stop:
	// when the hook is enabled, before its first child process, and at the
	// start of the judge command. The nested and disabled paths never call
	// it: watching signals costs a goroutine and a thread, measured at a
	// third of the disabled path's time. nil watches nothing.
	Signals func(context.Context) (context.Context, context.CancelFunc)
}

// withDefaults fills the clock and the diagnostics a caller left unset.
func (d Deps) withDefaults() Deps {
	if d.Now == nil {
		d.Now = time.Now
	}
	discardf := func(string, ...any) {}
	if d.Warnf == nil {
		d.Warnf = discardf
	}
	if d.JudgeWarnf == nil {
		d.JudgeWarnf = discardf
	}
	if d.Errorf == nil {
		d.Errorf = discardf
	}
	if d.Warn == nil {
		d.Warn = func(string) {}
	}
	if d.Signals == nil {
		d.Signals = func(ctx context.Context) (context.Context, context.CancelFunc) { return ctx, func() {} }
	}
	return d
}

// Run executes the hook, or the detached judge when Args name it. The hook
// returns 0, or ExitRewake when fix mode hands a failing verdict back. It
// never writes to stdout: a Stop hook's stdout is parsed by Claude Code,
// and a failing advisory judge must never block or disturb the user's
// session. Problems are reported as one stderr line each.
func Run(ctx context.Context, d Deps) int {
	// The guard comes first, before stdin is even read: inside a child that
	// tribunal started, this hook must cost nothing and do nothing.
	if hookio.Nested(d.Getenv) {
		return 0
	}
	d = d.withDefaults()
	if len(d.Args) > 0 && d.Args[0] == JudgeCommand {
		ctx, stop := d.Signals(ctx)
		defer stop()
		return runWorker(ctx, d, d.Args[1:])
	}
	h := &hook{Deps: d, start: d.Now()}
	budget := d.Budget
	if budget <= 0 {
		budget = HookBudget
	}
	h.deadline = h.start.Add(budget)
	ctx, cancel := context.WithDeadline(ctx, h.deadline)
	defer cancel()
	return h.run(ctx)
}

type hook struct {
	Deps
	start    time.Time
	deadline time.Time
	in       hookio.Input
	cfg      *config.Config
	stop     config.StopHookSettings
}

func (h *hook) warn(format string, args ...any) { h.Warnf(format, args...) }

// gitEnv is the environment git's configuration is found from: the
// hook's HOME, the rest from its environment.
func (h *hook) gitEnv(name string) string {
	if name == "HOME" {
		return h.Home
	}
	return h.Getenv(name)
}

func (h *hook) run(ctx context.Context) int {
	if !h.enabled() {
		return 0
	}
	ctx, stop := h.Signals(ctx)
	defer stop()
	j, ok := h.prepare(ctx)
	if !ok || h.paused(j) {
		return 0
	}
	if h.stop.Mode == config.StopModeFix {
		return h.fix(ctx, j)
	}
	if h.Claude != nil {
		// An injected runner cannot cross into a detached process (and the
		// executable would be a test binary): judge here instead, under the
		// session lock, exactly as the detached judge does.
		h.judgeHere(ctx, j)
		return 0
	}
	h.dispatch(j)
	return 0
}

// judgeHere runs the advisory judgement of j in this process, within the
// hook's deadline.
func (h *hook) judgeHere(ctx context.Context, j job) {
	j.Deadline = h.deadline
	lock, err := acquire(lockPath(j.ProjectDir, j.SessionID), j.info(procid.Self(), "inline", h.Now()), h.deadline, h.Now)
	if err == errDuplicate || err == errSuperseded {
		return
	}
	if err != nil {
		h.warn("no advisory verdict: %v", err)
		return
	}
	defer lock.Close()
	ctx, cancel := context.WithDeadline(ctx, j.Deadline)
	defer cancel()
	(&worker{Deps: withRedactor(h.Deps, j), j: j}).judgeAndRecord(ctx)
}

// enabled reads the hook's input and settings and reports whether this
// turn may need a verdict. It starts no process: this is all a disabled
// hook costs.
func (h *hook) enabled() bool {
	h.in = hookio.Read(h.Stdin)
	if h.in.StopHookActive {
		// The turn was continued by a Stop hook (fix mode's own rewake
		// included): judging it again is how loops start.
		return false
	}
	if h.in.Cwd == "" {
		return false
	}
	worktree, err := projectkey.FindWorktreeRoot(h.in.Cwd)
	if err != nil {
		return false
	}
	// Warnings wait for the master switch; once it is on they pass
	// straight through (StopHook and later reads warn too).
	var held []string
	hold := true
	h.cfg = config.Load(config.Sources{
		PluginRoot:   h.Getenv("CLAUDE_PLUGIN_ROOT"),
		Home:         h.Home,
		WorktreeRoot: worktree,
		Warn: func(m string) {
			if hold {
				held = append(held, m)
				return
			}
			h.Warn(m)
		},
	})
	if off, _ := h.cfg.Disabled(); off {
		// The master switch (spec §2.13) wins over stop_hook.enabled, and
		// silences even the warnings about the settings.
		return false
	}
	hold = false
	for _, m := range held {
		h.Warn(m)
	}
	h.stop = h.cfg.StopHook()
	return h.stop.Enabled
}

// prepare decides whether this turn needs a verdict and, when it does,
// describes the judgement as a job. Everything here is cheap: the hook
// reads git's view of the tree and fingerprints it; the judge itself runs
// elsewhere (advisory mode) or later (fix mode).
func (h *hook) prepare(ctx context.Context) (job, bool) {
	git := h.Git
	if git == nil {
		git = projectkey.ExecGit("git", h.Environ)
	}
	root, err := projectkey.FindWorktreeRoot(h.in.Cwd)
	if err != nil {
		return job{}, false
	}
	haveTranscript := hookio.IsRegularFile(h.in.TranscriptPath)
	if !haveTranscript && h.in.LastAssistantMessage == "" {
		// Nothing to judge: neither the transcript nor the final message.
		return job{}, false
	}
	// The tree's state comes first: a clean tree needs no project key.
	st, ok := h.treeState(ctx, git, root)
	if !ok {
		return job{}, false
	}
	fp, err := h.fingerprint(ctx, git, root, st, haveTranscript)
	if err != nil {
		h.warn("cannot fingerprint the working tree: %v", err)
		return job{}, false
	}
	onlookerDir, logPath := events.ResolvePaths(h.Getenv, h.Home)
	cache := projectkey.OriginCache{Dir: store.OriginCacheDir(onlookerDir), Env: h.Environ}
	repo, err := projectkey.ResolveCached(ctx, root, git, cache)
	if err != nil || repo.Key == "" {
		return job{}, false
	}
	project := store.ForKey(onlookerDir, repo.Key)
	if previousFingerprint(project.Dir, h.in.SessionID) == fp {
		return job{}, false
	}
	spec := provider.Of(h.cfg.StopProvider())
	if !spec.IsClaude() {
		// Another family's client (internal/llm/provider): a bad setting costs
		// this verdict only, with a line saying which key to fix.
		if err := spec.Validate(h.Getenv); err != nil {
			h.warn("no advisory verdict: %v", err)
			return job{}, false
		}
		h.stop.Model = spec.QualifiedModel("")
	}
	claudePath, err := h.locateClaude()
	if err != nil && spec.IsClaude() {
		// tribunal 1.2.7 skips silently when claude is missing; one line on
		// stderr costs nothing and explains an empty history.
		h.warn("no advisory verdict: %v", err)
		return job{}, false
	}
	return job{
		SessionID:            h.in.SessionID,
		TranscriptPath:       h.in.TranscriptPath,
		LastAssistantMessage: h.in.LastAssistantMessage,
		Worktree:             repo.WorktreeRoot,
		ProjectDir:           project.Dir,
		OnlookerDir:          onlookerDir,
		LogPath:              logPath,
		Fingerprint:          fp,
		Queued:               h.start,
		Settings:             h.stop,
		ClaudePath:           claudePath,
		Provider:             spec,
		Judge:                spec.Info(h.stop.Model),
		CodexPath:            h.cfg.CLIPath(provider.Codex),
		GeminiPath:           h.cfg.CLIPath(provider.Gemini),
		SessionBin:           h.SessionBin,
	}, true
}

// treeState reads the tree's state; false when the turn needs no verdict
// (a clean tree under skip_if_no_file_changes) or the state cannot be
// read. The commonest turn costs one git process, or none when the index
// and the tree prove it clean without one (a small repository, where
// starting git is most of the hook's cost).
func (h *hook) treeState(ctx context.Context, git projectkey.GitRunner, root string) (gitstate.State, bool) {
	if h.stop.SkipIfNoFileChanges && gitstate.ProvenClean(root, h.gitEnv) {
		return gitstate.State{}, false
	}
	st, err := gitstate.Status(ctx, git, root)
	if err != nil {
		h.warn("cannot read the state of %q: %v", root, err)
		return st, false
	}
	// Untracked files that look like secrets count for nothing: a turn that
	// only touched .env is not judged, and the fingerprint never hashes it.
	st, _ = st.WithoutSecrets(root, h.cfg.SecretRule())
	return st, !(h.stop.SkipIfNoFileChanges && !st.Dirty())
}

// fingerprint is the turn's tree state (ADR-009), with what the turn said
// when the file-change filter is off.
func (h *hook) fingerprint(ctx context.Context, git projectkey.GitRunner, root string, st gitstate.State, haveTranscript bool) (string, error) {
	var extra [][]byte
	if !h.stop.SkipIfNoFileChanges {
		// One judgement per tree state (ADR-009): what a turn said is not
		// part of the fingerprint, unless the file-change filter is off, in
		// which case a turn that only talked is judged too.
		var tail []byte
		if haveTranscript {
			tail, _ = hookio.Tail(h.in.TranscriptPath, transcriptTailBytes)
		}
		sum := sha256.Sum256(tail)
		extra = append(extra, []byte(h.in.LastAssistantMessage), sum[:])
	}
	return gitstate.Fingerprint(ctx, git, root, st, extra...)
}

// locateClaude finds the judge's executable: TRIBUNAL_CLAUDE_BIN, else the
// configured path, else claude on PATH. With an injected runner there is
// nothing to find.
func (h *hook) locateClaude() (string, error) {
	if h.Claude != nil {
		return "", nil
	}
	return claude.Locate(h.Getenv("TRIBUNAL_CLAUDE_BIN"), h.cfg.ClaudePath, h.Getenv("PATH"))
}
