// Package session runs one /tribunal task: the Actor → Jury → Meta-Judge →
// Gate loop, its events, its artifacts and its report.
//
// Run is the loop: isolation in a task worktree, the actor, and each
// iteration's round of judging by the engine (internal/judging), recorded
// in the task's store (taskRecorder: events, artifacts, ledger, cost and
// budget). JudgeChange is one such recorded round with no actor: it judges a
// given change (ChangeOptions.Diff) in a given directory (Dir) — command
// judges, meta-judge, gate, manifests, events, artifacts, ledger entry,
// report — as a one-iteration task; NewReview and Reviewer.Run are the
// same round for `tribunal-session review` (review.go), recorded as a task
// of kind review. Judging without recording (calibrate, rejudge) is
// judging.Jury.JudgeDiff; LoadJury and Jury here are aliases kept for
// older callers.
package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
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
	// Profile is --profile (spec §2.12); "" follows tribunal.profile.
	Profile string
	// MaxIterations overrides the effective max_iterations when > 0.
	MaxIterations int
	// BudgetUSD overrides the effective budget_usd when > 0 (run --budget-usd).
	BudgetUSD float64
	// GatePolicy overrides the effective gate policy when set (--quorum).
	GatePolicy rules.Policy
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
	// Candidates > 0 runs the task as best of N (RunCandidates, spec
	// §7.17); it also turns on the iteration guard of each candidate.
	Candidates int
	// candidate is set on each candidate's own run by RunCandidates.
	candidate *CandidateOf
}

// guarded says the iteration guard (spec §7.17) is on: a retry that the
// pairwise judge likes less than the previous iteration is never accepted.
func (o Options) guarded() bool { return o.Candidates > 0 || o.candidate != nil }

// Deps is everything the loop touches outside memory: the shared
// environment (internal/env) and this process's id.
type Deps struct {
	env.Env
	// PID is this process's id, recorded as the owner of a task worktree
	// so that the next run can tell a crashed run's leftovers.
	PID int
}

// ErrInterrupted marks a run stopped by a signal or a cancelled context.
var ErrInterrupted = judging.ErrInterrupted

// ErrNoVerdict marks a task aborted because no judge of an iteration
// produced a usable verdict.
var ErrNoVerdict = judging.ErrNoVerdict

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
	// actorState is a candidate's worktree fingerprint when its actor's
	// last turn ended (candidate_watch.go).
	actorState string
	// diffCapWarned: the stored-diff cap was announced (once a run).
	diffCapWarned bool
	commands      []cmdjudge.Judge
	// jury is the judging engine loaded from the settings.
	jury *judging.Jury
	// given is the change a JudgeChange judges (nil for a run).
	given *ChangeOptions
	// review marks a review's runner (review.go): recorded as a task of
	// kind review.
	review bool
	// answer is the answer judged (`judge`, spec §7.20); nil for a task
	// or a review.
	answer *answerState
	// title names a review by its change (review.Change.Title), for its
	// manifest.
	title string
	// Counts of writes that failed, reported in full once and summed at
	// the end.
	lostEvents, lostFiles       int
	firstEventErr, firstFileErr error
	// progressMu keeps a heartbeat's line and a step's line whole.
	progressMu sync.Mutex
	// dismissed is the run's dismissal set and its sources (dismissals.go).
	dismissed *dismissals
	// untrusted is a review's change when someone else wrote it (a range,
	// a diff); policy then holds its base's policy files (policy.go).
	untrusted *review.Change
	policy    *review.PolicyTree
	// policyEdited are the policy files the untrusted change edits,
	// recorded in the manifest.
	policyEdited []string
}

// withDefaults fills the clock, entropy and output sinks a caller left
// unset.
func (d Deps) withDefaults() Deps {
	d.Env = d.Env.WithDefaults()
	return d
}

// Run executes the task and returns its report. The error is non-nil when
// the outcome is aborted: a *ConfigError for setup failures, wrapping
// ErrInterrupted after a signal, or the Actor's failure.
func Run(ctx context.Context, opts Options, d Deps) (*Report, error) {
	if opts.Candidates > 0 {
		return RunCandidates(ctx, opts, d)
	}
	r, err := begin(ctx, opts, d)
	if err != nil {
		return r.report, err
	}
	if err := r.isolate(ctx); err != nil {
		r.abort(err)
		return r.report, err
	}
	r.useDismissals(&dismissals{where: "run"})
	err = r.Redact.Error(r.loop(ctx, r.iteration))
	r.report.Error = r.Redact.String(r.report.Error)
	return r.report, err
}

// begin prepares a task: its id, its event emitter and its setup (spec
// §7.2). A setup failure is recorded as an aborted task and returned as a
// *ConfigError.
func begin(ctx context.Context, opts Options, d Deps) (*runner, error) {
	d = d.withDefaults()
	if d.PID == 0 {
		d.PID = os.Getpid()
	}
	r := &runner{Deps: d, opts: opts, start: d.Now(), maxCost: map[string]float64{}}
	r.report = &Report{Task: opts.Task, CandidateOf: opts.candidate}
	onlookerDir, logPath := events.ResolvePaths(d.Getenv, d.Home)
	r.emitter = &events.Emitter{Dir: onlookerDir, LogPath: logPath, SessionID: opts.SessionID, Now: d.Now, Rand: d.Rand}

	r.taskID = opts.TaskID
	if r.taskID == "" {
		id, err := r.newID()
		if err != nil {
			return r, err
		}
		r.taskID = id
	}
	r.report.TaskID = r.taskID
	if err := r.setup(ctx, onlookerDir); err != nil {
		// spec §7.2 step 6: one session.complete aborted, no artifacts.
		r.abort(err)
		var ce *judging.ConfigError
		if errors.As(err, &ce) {
			return r, ce
		}
		return r, &judging.ConfigError{Err: err}
	}
	return r, nil
}

// abort records a task that stopped before its first iteration: one
// session.complete aborted, no artifacts.
func (r *runner) abort(err error) {
	r.report.Outcome = Aborted
	r.report.Error = err.Error()
	r.emit(events.SessionComplete{
		TaskID: r.taskID, Outcome: Aborted, IterationsUsed: events.Ptr(0),
		TotalDurationMS: events.Ptr(r.elapsedMS()),
	})
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
		var ce *judging.ConfigError
		if errors.As(err, &ce) {
			return ce
		}
		return &judging.ConfigError{Err: err}
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

// msSince is the time since t in milliseconds.
func (r *runner) msSince(t time.Time) int { return int(r.Now().Sub(t) / time.Millisecond) }

func (r *runner) elapsedMS() int {
	return int(r.Now().Sub(r.start) / time.Millisecond)
}

func (r *runner) progress(format string, args ...any) {
	line := fmt.Sprintf("[%s] "+format, append([]any{judging.ClockTime(r.Now().Sub(r.start))}, args...)...)
	r.progressMu.Lock()
	defer r.progressMu.Unlock()
	r.Progress(line)
}

// longPhase prints "still <what>" every Heartbeat until the returned stop
// is called (judging.LongPhase).
func (r *runner) longPhase(label, what string) (stop func()) {
	return judging.LongPhase(r.Heartbeat, r.Now, r.progress, label, what)
}

// emit records an event; a failure is a warning and never stops the loop
// (spec §7.5). A broken log or disk fails every write the same way, so only the
// first failure of each kind is printed in full; finish counts the rest.
func (r *runner) emit(p events.Payload, opts ...events.Option) {
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
	// The origin URL through the hooks' cache: a run or a review costs no
	// `git remote get-url` while the config files git would read are the
	// same as when it last asked.
	cache := projectkey.OriginCache{Dir: store.OriginCacheDir(onlookerDir), Env: r.Environ}
	repo, err := projectkey.ResolveCached(ctx, r.opts.Dir, r.Git, cache)
	if err != nil {
		if !errors.Is(err, projectkey.ErrNotRepo) {
			return &judging.ConfigError{Err: fmt.Errorf("%q: %w", r.opts.Dir, err), Hint: repoHint}
		}
		// Said once: the error's own words repeat "not inside a git work
		// tree" (issue 34).
		return &judging.ConfigError{Err: fmt.Errorf("%q is not inside a git repository%s", r.opts.Dir, projectkey.NotRepoDetail(err)), Hint: repoHint}
	}
	if repo.Key == "" {
		return fmt.Errorf("cannot derive a project key for %q", r.opts.Dir)
	}
	r.repo = repo
	if err := r.basePolicy(ctx); err != nil {
		return err
	}
	if err := r.configure(ctx, repo.WorktreeRoot); err != nil {
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
		return &judging.ConfigError{Err: err, Hint: isolationHint}
	}
	return nil
}

// useRedactor makes every sink of the run pass through the redactor of
// the configured credentials (the jury's): the progress, warning and note
// lines, the events, the artifacts (r.write) and the ledger (r.Redact in
// its fields), on top of the provider runners' own redaction.
func (r *runner) useRedactor() {
	r.Redact = r.jury.Redactor()
	if !r.Redact.Active() {
		return
	}
	r.Progress, r.Warn = r.Redact.Func(r.Progress), r.Redact.Func(r.Warn)
	r.Note, r.Relay = r.Redact.Func(r.Note), r.Redact.Func(r.Relay)
	if r.emitter != nil {
		r.emitter.Redact = r.Redact
	}
}

// configure loads the judging engine for worktreeRoot ("" outside a
// repository: plugin and user layers only): settings, rubric, effective
// parameters and panel — everything a jury needs, nothing the actor or
// the artifacts need.
func (r *runner) configure(ctx context.Context, worktreeRoot string) error {
	jury, err := judging.Load(judging.Options{RubricID: r.opts.RubricID, Profile: r.opts.Profile, WorktreeRoot: worktreeRoot, PolicyRoot: r.policyRoot(), PolicyFile: r.policyFile(ctx),
		MaxIterations: r.opts.MaxIterations, BudgetUSD: r.opts.BudgetUSD, GatePolicy: r.opts.GatePolicy,
		// A review may be answered from the cache: its schemas are
		// compiled after the lookup misses (Reviewer.Run).
		DeferSchemaCheck: r.review}, r.Env)
	r.jury = jury
	r.report.RubricID = jury.RubricID()
	if err != nil {
		return errors.Unwrap(err)
	}
	r.cfg, r.rub, r.params = jury.Config(), jury.Rubric(), jury.Params()
	r.useRedactor()
	r.report.Seats = jury.SeatCount()
	r.report.Families = jury.Families()
	r.report.FamilyNote = provider.OneFamilyNote(r.report.Families)
	r.report.MaxIterations = r.params.MaxIterations
	if p := r.cfg.Profile(); p != config.DefaultProfile {
		r.report.Profile = p
	}
	r.report.BudgetUSD = r.params.BudgetUSD
	return nil
}
