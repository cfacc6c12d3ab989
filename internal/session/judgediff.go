package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/unidiff"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Jury is the judge configuration that `run` would use — panel, reps,
// rubric, meta-judge and gate, from the same configuration layers —
// loaded once, to judge work that no actor of this run produced: the
// labelled cases of `calibrate` and the recorded iterations of `rejudge`.
type Jury struct {
	base *runner
}

// JuryOptions select the configuration.
type JuryOptions struct {
	RubricID string // "" → tribunal.rubric.default_id
	// WorktreeRoot is the repository whose .claude layers apply; ""
	// outside a repository (plugin and user layers only).
	WorktreeRoot string
}

// LoadJury loads the configuration the way a run's setup does. Its error
// is a *ConfigError.
func LoadJury(opts JuryOptions, d Deps) (*Jury, error) {
	d = d.withDefaults()
	r := &runner{Deps: d, opts: Options{RubricID: opts.RubricID}, report: &Report{}}
	if err := r.configure(opts.WorktreeRoot); err != nil {
		return nil, &ConfigError{Err: err}
	}
	return &Jury{base: r}, nil
}

// Params are the effective session parameters (threshold, policy, …).
func (j *Jury) Params() config.Params { return j.base.params }

// RubricID is the rubric in use.
func (j *Jury) RubricID() string { return j.base.report.RubricID }

// Seats describes the panel: one "type=model" per seat, model "" for the
// CLI's default.
func (j *Jury) Seats() []string {
	seats, _ := jury.Empanel(j.base.params.JudgeTypes, j.base.seatModel, func() (string, error) { return "x", nil }, func(string) {})
	var out []string
	for _, s := range seats {
		out = append(out, fmt.Sprintf("%s=%s×%d", s.JudgeType, s.Model, j.base.cfg.Reps(s.JudgeType)))
	}
	return out
}

// Fingerprint identifies everything that decides how this jury judges a
// piece of work — rubric, parameters, panel, models, reps, trust settings,
// agent prompts and the judge prompt built for w — as hex SHA-256. Two
// judgements with the same fingerprint asked the same questions of the
// same models, so a stored one can stand in for a new call.
func (j *Jury) Fingerprint(w Work) string {
	r := j.base
	h := sha256.New()
	put := func(v any) {
		b, _ := json.Marshal(v)
		h.Write(b)
		h.Write([]byte{0})
	}
	put(r.report.RubricID)
	if r.rub != nil {
		put(r.rub.Raw)
	}
	put(r.params)
	put(r.prov.judges)
	put(r.prov.meta)
	put(j.Seats())
	put(r.cfg.Trust())
	put(r.failAt.String())
	for _, name := range []string{prompts.MetaJudgeAgent, prompts.StandardJudgeAgent, prompts.AdversarialJudgeAgent, prompts.SecurityJudgeAgent} {
		a, _ := prompts.Agent(name)
		put(a)
	}
	put(prompts.VerdictSchema(r.criterionNames()))
	put(prompts.MetaSchema())
	seats, _ := jury.Empanel(r.params.JudgeTypes, r.seatModel, func() (string, error) { return "x", nil }, func(string) {})
	for _, s := range seats {
		put(prompts.JudgePrompt(prompts.JudgeInput{
			Task: w.Task, Criteria: r.criteria(), ActorOutput: w.ActorOutput,
			Threshold: r.params.ScoreThreshold, JudgeType: s.JudgeType, Iteration: w.Iteration, Diff: shadowDiff(w.Files), Isolated: true,
		}))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// shadowDiff renders a Work's change for the judges' prompt, bounded
// exactly as an isolated task's diff is (judgeDiffBytes).
func shadowDiff(files []unidiff.File) string { return unidiff.Render(files, judgeDiffBytes) }

// Work is one finished piece of work to judge.
type Work struct {
	Task string
	// Files are the change (internal/unidiff), shown to the judges where a
	// run shows its diff, bounded the same way.
	Files []unidiff.File
	// ActorOutput is the actor's final message (a recorded one, or a
	// neutral line for a labelled case).
	ActorOutput string
	// Iteration is the iteration number the judges are told.
	Iteration int
	// Dir is the judges' working directory: the work's files.
	Dir string
}

// Judgement is what the jury, the meta-judge and the gate made of a Work.
type Judgement struct {
	Iteration IterationReport   `json:"iteration"`
	Verdicts  []verdict.Verdict `json:"verdicts"`
	CostUSD   *float64          `json:"cost_usd,omitempty"`
	// Usable is how many seats produced a usable score; 0 means the jury
	// never judged (every call failed) and the gate's "block" is no
	// verdict on the work.
	Usable int `json:"usable_verdicts"`
}

// JudgeDiff runs spec §7.4 steps 3–7 on w exactly as an iteration of `run`
// would, with no actor, no events, no artifacts and no ledger entry.
// Command judges do not sit: they test the repository's working tree, not
// w. It is safe to call from several goroutines at once.
func (j *Jury) JudgeDiff(ctx context.Context, w Work) (Judgement, error) {
	b := j.base
	r := &runner{
		Deps: b.Deps, opts: b.opts, cfg: b.cfg, rub: b.rub, params: b.params, failAt: b.failAt, prov: b.prov,
		report: &Report{RubricID: b.report.RubricID}, maxCost: map[string]float64{},
		shadow: true, shadowDiff: shadowDiff(w.Files),
	}
	r.opts.Task = w.Task
	r.repo.WorktreeRoot, r.workDir = w.Dir, w.Dir
	r.start = r.Now()
	iterID, err := r.newID()
	if err != nil {
		return Judgement{}, err
	}
	it := &iterationState{report: IterationReport{Number: w.Iteration, IterationID: iterID}, actorOutput: w.ActorOutput}
	label := fmt.Sprintf("[%d]", w.Iteration+1)
	err = r.judge(ctx, it, "", label, w.Iteration)
	if errors.Is(err, ErrNoVerdict) {
		// A run aborts the task here; for a shadow jury it is a result:
		// Usable 0 says the jury never judged w.
		err = nil
	}
	it.report.DurationMS = r.elapsedMS()
	out := Judgement{Iteration: it.report, Verdicts: it.verdicts}
	for _, v := range it.verdicts {
		if _, ok := v.UsableScore(); ok {
			out.Usable++
		}
	}
	if r.costSeen {
		c := math.Round(r.cost*1e10) / 1e10
		out.CostUSD = &c
	}
	return out, err
}
