package session

import (
	"context"
	"errors"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// ChangeOptions are a finished change to judge with no actor: one round
// of the jury, the meta-judge and the gate, recorded as a task.
type ChangeOptions struct {
	// Task is what the change is meant to do; the judges are asked about
	// it as about a /tribunal task.
	Task     string
	RubricID string // "" → tribunal.rubric.default_id
	// Profile is --profile (spec §2.12); "" follows tribunal.profile.
	Profile string
	// Dir is the directory holding the change: its repository gives the
	// settings, the project and the store, and every judge and command
	// judge runs in it.
	Dir string
	// Diff is the change as a unified diff (base..head, the staged
	// changes, or one given), shown to the judges bounded as an isolated
	// task's diff is.
	Diff string
	// ActorOutput is the claim judged beside the change ("" → none).
	ActorOutput string
	// Keep, when set, filters the judges' findings before the gate
	// weighs them (judging.Input.Keep).
	Keep func([]severity.Finding) []severity.Finding
	// SessionID and TaskID are as in Options.
	SessionID string
	TaskID    string
}

// JudgeChange judges one change in one directory with everything a /tribunal
// iteration has but the actor: the command judges run in Dir, and the
// task's manifests, events, artifacts, ledger entry, report and summary
// are recorded as a run's are, under a task id. It is a one-iteration
// task: the outcome is accepted when the gate passes, exhausted_iterations
// when it blocks, and aborted (with the error) when the setup fails (a
// *ConfigError), no judge gives a usable verdict, or a signal stops it.
// Nothing in the user's working tree changes.
func JudgeChange(ctx context.Context, opts ChangeOptions, d Deps) (*Report, error) {
	r, err := begin(ctx, Options{
		Task: opts.Task, RubricID: opts.RubricID, Profile: opts.Profile, MaxIterations: 1, Dir: opts.Dir,
		SessionID: opts.SessionID, TaskID: opts.TaskID, InPlace: true,
	}, d)
	if err != nil {
		return r.report, err
	}
	r.given = &opts
	r.workDir = opts.Dir
	err = r.Redact.Error(r.loop(ctx, r.changeIteration))
	r.report.Error = r.Redact.String(r.report.Error)
	return r.report, err
}

// changeIteration is JudgeChange's only iteration: the given change, judged.
func (r *runner) changeIteration(ctx context.Context, n int) (*iterationState, error) {
	if n > 0 {
		return nil, errors.New("judging a given change is one iteration")
	}
	it, err := r.newIteration(n)
	if err != nil {
		return nil, err
	}
	start := r.Now()
	defer func() { it.Report.DurationMS = r.msSince(start) }()
	dir, label := r.startIteration(it)
	it.ActorOutput = r.given.ActorOutput
	in := r.roundInput(it, dir, label)
	in.Isolated, in.Diff, in.Keep = true, judging.BoundedDiff(r.given.Diff), r.given.Keep
	in.Files = r.evaluatorFiles(ctx, r.given.Diff)
	return it, r.judgeRound(ctx, it, in)
}
