package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/dismiss"

	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// ReviewOptions are what `tribunal-session review` asks for.
type ReviewOptions struct {
	// Dir is where the command runs; the repository is found from it.
	Dir string
	// Task is what the change was meant to do ("" when nobody said).
	Task      string
	RubricID  string
	SessionID string
	// Profile is --profile (spec §2.12); "" follows tribunal.profile.
	Profile string
	// Change is the resolved change (internal/review).
	Change *review.Change
	// DiffBytes bounds the diff the judges are shown (0: the bound a
	// task's judges have).
	DiffBytes int
	// BudgetUSD overrides tribunal.session.budget_usd when set.
	BudgetUSD *float64
	// GatePolicy overrides the effective gate policy when set (--quorum).
	GatePolicy rules.Policy
	// Dismissed overrides the dismissal file; "" reads
	// dismiss.SharedFile in the head state.
	Dismissed string
}

// Reviewer is one review, set up and not yet run: its fingerprint keys
// the verdict cache before any model is called.
type Reviewer struct {
	r    *runner
	opts ReviewOptions
	// diff is the change as the judges see it (unidiff.RenderNoting within
	// opts.DiffBytes); omitted says what it leaves out.
	diff    string
	omitted []string
}

// ReviewResult is a review's outcome and what it recorded.
type ReviewResult struct {
	Report *Report
	Record records.Review
	// Gate is the gate's decision; Worst the worst verified finding still
	// raised (ok false when none).
	Gate  judging.GateReport
	Worst severity.Level
	Any   bool
}

// noTask is the task a review's judges are given when nobody said what
// the change was for.
const noTask = records.ReviewNoTask

// NewReview sets a review up as Run sets up a task (repository, settings,
// rubric, panel, command judges); its error is a *ConfigError.
func NewReview(ctx context.Context, opts ReviewOptions, d Deps) (*Reviewer, error) {
	task := opts.Task
	if strings.TrimSpace(task) == "" {
		task = noTask
	}
	r, err := newOneRound(ctx, Options{Task: task, RubricID: opts.RubricID, Profile: opts.Profile, Dir: opts.Dir, SessionID: opts.SessionID, GatePolicy: opts.GatePolicy}, d,
		func(r *runner) { r.review, r.untrusted = true, opts.Change })
	if err != nil {
		return nil, err
	}
	if opts.BudgetUSD != nil {
		r.params.BudgetUSD = opts.BudgetUSD
	}
	if opts.DiffBytes <= 0 {
		opts.DiffBytes = judging.JudgeDiffBytes
	}
	return &Reviewer{r: r, opts: opts}, nil
}

// newOneRound sets up a runner for one round of judging that no actor
// preceded — a review, an answer — as Run sets up a task (repository,
// settings, rubric, panel, command judges), in place; mark sets what
// kind of record it is before the setup reads it. Its error is a
// *judging.ConfigError.
func newOneRound(ctx context.Context, opts Options, d Deps, mark func(*runner)) (*runner, error) {
	d = d.withDefaults()
	// In place: a review sets the worktree manager up only when its head
	// state needs a worktree (headState), which a CI checkout of the head
	// does not; an answer needs none. One iteration: the jury is loaded
	// with it, so the meta-judge knows no retry follows.
	opts.InPlace, opts.MaxIterations = true, 1
	r := &runner{Deps: d, opts: opts, start: d.Now(), maxCost: map[string]float64{}}
	mark(r)
	r.report = &Report{Task: r.opts.Task}
	onlookerDir, logPath := events.ResolvePaths(d.Getenv, d.Home)
	r.emitter = &events.Emitter{Dir: onlookerDir, LogPath: logPath, SessionID: opts.SessionID, Now: d.Now, Rand: d.Rand}
	id, err := r.newID()
	if err != nil {
		return nil, err
	}
	r.taskID, r.report.TaskID = id, id
	if err := r.setup(ctx, onlookerDir); err != nil {
		r.closePolicy()
		var ce *judging.ConfigError
		if errors.As(err, &ce) {
			return nil, ce
		}
		return nil, &judging.ConfigError{Err: err}
	}
	return r, nil
}

// Close removes what the review set up outside its store (the base's
// policy files); the Reviewer is not used after.
func (v *Reviewer) Close() { v.r.closePolicy() }

// SharedDismissals is the shared dismissal file the review reads unless
// --dismissed names one: the base's for a change someone else wrote
// (review.Change.Untrusted), the work tree's otherwise.
func (v *Reviewer) SharedDismissals() string {
	if v.opts.Dismissed != "" {
		return v.opts.Dismissed
	}
	if v.r.policy == nil {
		return filepath.Join(v.r.workDir, filepath.FromSlash(dismiss.SharedFile))
	}
	return v.r.sharedDismissals()
}

// ChangeLimits are session.max_file_mb and max_change_mb as the policy
// the review reads has them (the base's, for a change someone else wrote).
func (v *Reviewer) ChangeLimits() worktree.Limits {
	var l worktree.Limits
	l.FileBytes, l.TaskBytes = v.r.jury.Config().ChangeLimits()
	return l
}

// Offline reports whether the review's jury calls no model
// (judging.Jury.Offline), as configured by the policy the review reads.
func (v *Reviewer) Offline() bool { return v.r.jury.Offline() }

// ID is the review's record id.
func (v *Reviewer) ID() string { return v.r.taskID }

// RubricID is the rubric in use.
func (v *Reviewer) RubricID() string { return v.r.report.RubricID }

// Threshold is the gate's score threshold.
func (v *Reviewer) Threshold() float64 { return v.r.params.ScoreThreshold }

// Omitted says what the judges' diff leaves out (known once Run began).
func (v *Reviewer) Omitted() []string { return v.omitted }

// ProjectDir is the project's store directory.
func (v *Reviewer) ProjectDir() string { return v.r.project.Dir }

// Fingerprint is the jury's fingerprint for this review's question
// (judging.Jury.Fingerprint over the task, without the diff) and its
// command judges, which with the trees keys the verdict cache
// (review.CacheKey): the diff is the trees', and a change whose verdict
// is cached is never diffed.
func (v *Reviewer) Fingerprint() string {
	return v.r.jury.Fingerprint(judging.Work{Task: v.r.opts.Task, ActorOutput: v.actorLine()}) +
		fmt.Sprintf("/commands=%d", len(v.r.commands)) + commandNames(v.r)
}

func commandNames(r *runner) string {
	var names []string
	for _, c := range r.commands {
		names = append(names, c.Spec.Name+"="+strings.Join(c.Spec.Command, " "))
	}
	return strings.Join(names, "\x00")
}

// actorLine stands where a task's judges read the actor's final message.
func (v *Reviewer) actorLine() string {
	return "There is no actor: this is a review of an existing change (" + describe(v.opts.Change) +
		"). Your working directory holds the code with the change applied; judge the change the diff shows."
}

func describe(c *review.Change) string {
	switch c.Kind {
	case review.KindRange:
		return "commits " + shortCommit(c.Base) + ".." + shortCommit(c.Head)
	case review.KindStaged:
		return "the staged changes"
	case review.KindWorkTree:
		return "the work tree's uncommitted change on " + shortCommit(c.Base)
	}
	return "a diff on " + shortCommit(c.Base)
}
