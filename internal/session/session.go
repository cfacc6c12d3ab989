// Package session runs one /tribunal task: the Actor → Jury → Meta-Judge → Gate loop, its events, its artifacts and its report.
package session

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/provider"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/worktree"
)

// Outcomes of a task (spec §7.8).
const (
	Accepted  = "accepted"
	Exhausted = "exhausted_iterations"
	Aborted   = "aborted"
)

// Options are what the user asked for.
type Options struct {
	Task     string
	RubricID string // "" → tribunal.rubric.default_id
	// MaxIterations overrides the effective max_iterations when > 0.
	MaxIterations int
	// Dir is where the command runs; the repository is found from it.
	Dir string
	// SessionID is the host conversation's id for event envelopes.
	SessionID string
	// TaskID fixes the task id (a detached run is told its id by the
	// command that started it); "" mints one.
	TaskID string
	// InPlace lets the actor edit the user's working tree directly, as
	// before isolation existed; by default the task runs in its own git
	// worktree and only an accepted change reaches the user's tree.
	InPlace bool
}

// Deps is everything the loop touches outside memory.
type Deps struct {
	Getenv func(string) string
	Home   string
	// Progress receives one line per step, for a person watching, each
	// with the time since the task started.
	Progress func(string)
	// Heartbeat is how often a long phase (the actor, the jury, the
	// meta-judge) says it is still going: 0 means every 30 seconds, a
	// negative value never.
	Heartbeat time.Duration
	// Warn receives each warning of the run and of the settings it loads;
	// Note a line that is neither progress nor a warning (a leftover
	// cleaned up). Relay receives the warnings of the decision packages
	// (aggregate, verdict, severity, jury, gate), which name their source
	// themselves ("tribunal-gate: …", as the decide output carries them).
	// All get plain text: the binary adds the prefixes and prints them.
	Warn   func(string)
	Note   func(string)
	Relay  func(string)
	Now    func() time.Time
	Rand   io.Reader
	Claude claude.Runner
	Git    projectkey.GitRunner
	// Environ is the environment of command judges (their PATH comes
	// from here, never from the repository).
	Environ []string
	// PID is this process's id, recorded as the owner of a task worktree
	// so that the next run can tell a crashed run's leftovers.
	PID int
	// Sandbox says whether Claude Code's Bash sandbox can run for a judge
	// (docs/security.md §2.4); nil checks this machine with
	// claude.CheckSandbox and the PATH of Environ.
	Sandbox func() claude.SandboxSupport
	// Redact scrubs the configured credentials from everything the run
	// stores or prints; nil means the run builds it from its settings
	// (provider.Redactor over every configured provider).
	Redact *redact.Redactor
}

// ConfigError is a setup failure caused by the user's configuration or
// invocation (a bad rubric, an invalid setting, an empty panel, no
// repository): the run is aborted before any model call. Hint, when set,
// says what to do instead of the generic "fix the setting".
type ConfigError struct {
	Err  error
	Hint string
}

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrInterrupted marks a run stopped by a signal or a cancelled context.
var ErrInterrupted = errors.New("interrupted")

// runner holds one task's state.
type runner struct {
	Deps
	opts     Options
	repo     projectkey.Repo
	cfg      *config.Config
	rub      *rubric.Rubric
	params   config.Params
	project  store.Project
	taskDir  string
	taskID   string
	emitter  *events.Emitter
	start    time.Time
	report   *Report
	costMu   sync.Mutex
	fileMu   sync.Mutex
	costSeen bool
	cost     float64
	maxCost  map[string]float64 // largest single call per role, for the budget
	history  []iterationState
	// Isolation: the task worktree (nil with --in-place) and the
	// directory every model call and command judge runs in.
	wt      *worktree.Manager
	task    *worktree.Task
	workDir string
	// diffCapWarned: the stored-diff cap was announced (once a run).
	diffCapWarned bool
	commands      []cmdjudge.Judge
	failAt        severity.Level
	prov          providers
	// bash is the sandbox check, made once, the first time a judge would
	// get Bash.
	bash   sync.Once
	bashOK claude.SandboxSupport
	// shadow judges work outside a task (JudgeDiff): no events, no
	// artifacts, no ledger entry; shadowDiff is the change the judges see.
	shadow     bool
	shadowDiff string
	// review judges an existing change (review.go): recorded like a task,
	// its judges shown shadowDiff; dismiss drops the findings people
	// dismissed before the gate weighs them.
	review  bool
	dismiss func([]severity.Finding) []severity.Finding
	// dismissed is the run's dismissal set and its sources (dismissals.go).
	dismissed *dismissals
	// Counts of writes that failed, reported in full once and summed at
	// the end.
	lostEvents, lostFiles       int
	firstEventErr, firstFileErr error
	// progressMu keeps a heartbeat's line and a step's line whole.
	progressMu sync.Mutex
}

// withDefaults fills the clock, entropy and output sinks a caller left
// unset.
func (d Deps) withDefaults() Deps {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Rand == nil {
		d.Rand = rand.Reader
	}
	if d.Warn == nil {
		d.Warn = func(string) {}
	}
	if d.Progress == nil {
		d.Progress = func(string) {}
	}
	if d.Note == nil {
		d.Note = func(string) {}
	}
	if d.Relay == nil {
		d.Relay = func(string) {}
	}
	return d
}

// Run executes the task and returns its report. The error is non-nil when
// the outcome is aborted: a *ConfigError for setup failures, wrapping
// ErrInterrupted after a signal, or the Actor's failure.
func Run(ctx context.Context, opts Options, d Deps) (*Report, error) {
	d = d.withDefaults()
	if d.PID == 0 {
		d.PID = os.Getpid()
	}
	r := &runner{Deps: d, opts: opts, start: d.Now(), maxCost: map[string]float64{}}
	r.report = &Report{Task: opts.Task}
	onlookerDir, logPath := events.ResolvePaths(d.Getenv, d.Home)
	r.emitter = &events.Emitter{Dir: onlookerDir, LogPath: logPath, SessionID: opts.SessionID, Now: d.Now, Rand: d.Rand}

	r.taskID = opts.TaskID
	if r.taskID == "" {
		id, err := r.newID()
		if err != nil {
			return r.report, err
		}
		r.taskID = id
	}
	r.report.TaskID = r.taskID

	if err := r.setup(ctx, onlookerDir); err != nil {
		// spec §7.2 step 6: one session.complete aborted, no artifacts.
		r.report.Outcome = Aborted
		r.report.Error = err.Error()
		r.emit(events.SessionComplete{
			TaskID: r.taskID, Outcome: Aborted, IterationsUsed: events.Ptr(0),
			TotalDurationMS: events.Ptr(r.elapsedMS()),
		})
		var ce *ConfigError
		if errors.As(err, &ce) {
			return r.report, ce
		}
		return r.report, &ConfigError{Err: err}
	}
	if err := r.isolate(ctx); err != nil {
		r.report.Outcome = Aborted
		r.report.Error = err.Error()
		r.emit(events.SessionComplete{
			TaskID: r.taskID, Outcome: Aborted, IterationsUsed: events.Ptr(0),
			TotalDurationMS: events.Ptr(r.elapsedMS()),
		})
		return r.report, err
	}
	r.useDismissals(&dismissals{where: "run"})
	err := r.Redact.Error(r.loop(ctx))
	r.report.Error = r.Redact.String(r.report.Error)
	return r.report, err
}

// Validate checks a task exactly as Run does before its first model call
// (repository, settings, rubric, panel, and whether a task worktree can be
// made) without running, recording or creating anything. `run --detach`
// calls it so that a bad rubric fails before anything starts.
func Validate(ctx context.Context, opts Options, d Deps) error {
	d = d.withDefaults()
	r := &runner{Deps: d, opts: opts, maxCost: map[string]float64{}, report: &Report{Task: opts.Task}}
	r.taskID = "validate"
	onlookerDir, _ := events.ResolvePaths(d.Getenv, d.Home)
	if err := r.setup(ctx, onlookerDir); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			return ce
		}
		return &ConfigError{Err: err}
	}
	return nil
}

func (r *runner) newID() (string, error) {
	id, err := events.NewULID(r.Rand, r.Now())
	if err != nil {
		return "", fmt.Errorf("mint an id: %w", err)
	}
	return id, nil
}

func (r *runner) elapsedMS() int {
	return int(r.Now().Sub(r.start) / time.Millisecond)
}

func (r *runner) progress(format string, args ...any) {
	line := fmt.Sprintf("[%s] "+format, append([]any{clockTime(r.Now().Sub(r.start))}, args...)...)
	r.progressMu.Lock()
	defer r.progressMu.Unlock()
	r.Progress(line)
}

// clockTime prints an elapsed time as m:ss (h:mm:ss past an hour).
func clockTime(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// defaultHeartbeat is how often a long phase reports that it is alive.
const defaultHeartbeat = 30 * time.Second

// longPhase prints "still <what>" every Heartbeat until the returned stop
// is called: a judge may think for minutes, and a person (or a detached
// run's wait) should see that the run is alive and how long the phase
// has taken.
func (r *runner) longPhase(label, what string) (stop func()) {
	every := r.Heartbeat
	if every == 0 {
		every = defaultHeartbeat
	}
	if every < 0 {
		return func() {}
	}
	begun := r.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				r.progress("%s still %s (%s so far)", label, what, clockTime(r.Now().Sub(begun)))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// emit records an event; a failure is a warning and never stops the loop
// (spec §7.5). A broken log or disk fails every write the same way, so only the
// first failure of each kind is printed in full; finish counts the rest.
func (r *runner) emit(p events.Payload, opts ...events.Option) {
	if r.shadow {
		return
	}
	if err := r.emitter.Emit(p, opts...); err != nil {
		r.lostEvents++
		if r.lostEvents == 1 {
			r.firstEventErr = err
			r.Warn(fmt.Sprintf("event %s not recorded: %v", p.EventType(), err))
		}
	}
}

// write stores an artifact; a failure is a warning (spec §B.8: the verdict
// still reaches the user through the report and the events).
func (r *runner) write(rel string, v any) {
	if r.shadow {
		return
	}
	r.storeErr(store.WriteJSONRedacted(filepath.Join(r.taskDir, rel), v, r.Redact))
}

func (r *runner) storeErr(err error) {
	if err == nil {
		return
	}
	// Judges' call records are written from their goroutines.
	r.fileMu.Lock()
	defer r.fileMu.Unlock()
	r.lostFiles++
	if r.lostFiles == 1 {
		r.firstFileErr = err
		r.Warn(fmt.Sprintf("artifact not written: %v", err))
	}
}

// setup is spec §7.2: repository, configuration, rubric, parameters, panel.
func (r *runner) setup(ctx context.Context, onlookerDir string) error {
	if r.opts.Task == "" {
		return errors.New("the task is empty")
	}
	repo, err := projectkey.Resolve(ctx, r.opts.Dir, r.Git)
	if err != nil {
		return &ConfigError{Err: fmt.Errorf("%q is not inside a git repository: %w", r.opts.Dir, err), Hint: repoHint}
	}
	if repo.Key == "" {
		return fmt.Errorf("cannot derive a project key for %q", r.opts.Dir)
	}
	r.repo = repo
	if err := r.configure(repo.WorktreeRoot); err != nil {
		return err
	}
	judges, err := r.cfg.CommandJudges(r.params.JudgeTimeout)
	if err != nil {
		return err
	}
	if r.commands, err = cmdjudge.Configured(judges, repo.WorktreeRoot, r.Environ); err != nil {
		return err
	}
	r.project = store.ForKey(onlookerDir, repo.Key)
	r.workDir = repo.WorktreeRoot
	if !r.opts.InPlace {
		if err := r.worktrees(ctx); err != nil {
			return err
		}
	}
	r.taskDir = r.project.TaskDir(r.taskID)
	r.report.ArtifactDir = r.taskDir
	return nil
}

// worktrees sets up the manager of task (and review) worktrees and checks
// that one can be made here.
func (r *runner) worktrees(ctx context.Context) error {
	r.wt = &worktree.Manager{Git: r.Git, Dir: r.project.WorktreesDir(), PID: r.PID, Now: r.Now, Warn: r.Warn,
		Fallback: worktree.FallbackDir(r.Getenv("TMPDIR"), os.Getuid(), r.repo.Key), Secrets: r.cfg.SecretRule()}
	r.wt.Limits.FileBytes, r.wt.Limits.TaskBytes = r.cfg.ChangeLimits()
	pool := r.cfg.WorktreePool()
	r.wt.Pool = worktree.Pool{Off: pool.Off, Size: pool.Size, MaxIdle: pool.MaxIdle, KeepIgnored: pool.KeepIgnored}
	if err := r.wt.Check(ctx, r.repo.WorktreeRoot); err != nil {
		return &ConfigError{Err: err, Hint: isolationHint}
	}
	return nil
}

// useRedactor makes every sink of the run pass through the redactor of
// the configured credentials: the progress, warning and note lines, the
// events, the artifacts (r.write) and the ledger (r.Redact in its
// fields), on top of the provider runners' own redaction.
func (r *runner) useRedactor() {
	if r.Redact == nil {
		r.Redact = provider.Redactor(provider.Specs(r.cfg.Providers()), r.Getenv)
	}
	if !r.Redact.Active() {
		return
	}
	r.Progress, r.Warn = r.Redact.Func(r.Progress), r.Redact.Func(r.Warn)
	r.Note, r.Relay = r.Redact.Func(r.Note), r.Redact.Func(r.Relay)
	if r.emitter != nil {
		r.emitter.Redact = r.Redact
	}
}

// configure loads the configuration layers of worktreeRoot ("" outside a
// repository: plugin and user layers only), the rubric, the effective
// parameters and the panel: everything a jury needs, nothing the actor
// or the artifacts need.
func (r *runner) configure(worktreeRoot string) error {
	r.cfg = config.Load(config.Sources{
		PluginRoot:   r.Getenv("CLAUDE_PLUGIN_ROOT"),
		Home:         r.Home,
		WorktreeRoot: worktreeRoot,
		Warn:         r.Warn,
	})
	r.useRedactor()
	rubrics := rubric.OverlayPaths(r.Home, worktreeRoot)
	rubrics.Builtins, rubrics.BuiltinsOrigin = r.cfg.BuiltinRubrics(), r.cfg.BuiltinRubricsSource()
	rubrics.Warn = r.Warn
	set := rubric.LoadSet(rubrics)
	id := r.opts.RubricID
	if id == "" {
		id = r.cfg.DefaultRubricID()
	}
	r.report.RubricID = id
	rub, ok := set.Lookup(id)
	if !ok {
		rub = nil
	}
	params, err := r.cfg.Session(rub)
	if err != nil {
		if rub == nil {
			return fmt.Errorf("%w (no rubric with id %q; known: %v)", err, id, set.IDs())
		}
		return err
	}
	if r.opts.MaxIterations > 0 {
		params.MaxIterations = r.opts.MaxIterations
	}
	r.rub = rub
	r.params = params
	// A dry empanelling: the real one mints fresh ids every iteration, but
	// an empty panel must stop the run before the Actor (spec §3.2). Its
	// warnings (degraded or refused types) are printed here, once per run.
	seats, err := jury.Empanel(params.JudgeTypes, r.cfg.JudgeModel, func() (string, error) { return "x", nil }, r.Relay)
	if err != nil {
		return err
	}
	if len(seats) == 0 {
		return errors.New("the jury is empty: judge_types names no judge that can sit (meta is not a jury seat)")
	}
	if err := r.setupProviders(seatTypes(seats)); err != nil {
		return err
	}
	if r.failAt, err = r.cfg.SeverityFailAt(); err != nil {
		return err
	}
	r.report.Seats = len(seats)
	r.report.Families = r.panelFamilies(seatTypes(seats))
	r.report.FamilyNote = provider.OneFamilyNote(r.report.Families)
	r.report.MaxIterations = params.MaxIterations
	return nil
}
