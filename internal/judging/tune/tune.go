// Package tune improves the judging surface — a rubric's criteria, their
// weights and floors, its threshold — against labelled cases: it measures
// the current surface and its run-to-run noise, has a proposer seat
// suggest bounded edits from the train part's failures only, and
// promotes a candidate only on paired held-out evidence (spec §14.7).
package tune

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// Defaults of the options (spec §14.7).
const (
	DefaultMinCases    = 30
	DefaultHoldout     = 0.5
	DefaultRepeats     = 3
	DefaultPopulation  = 4
	DefaultGenerations = 2
	DefaultDelta       = 0.05
	DefaultBudgetUSD   = 5.0
)

// Options are one run's settings; zero values take the defaults.
type Options struct {
	// ID names the run in its events and records.
	ID          string
	Cases       []calibrate.Case
	Base        Surface
	MinCases    int
	Holdout     float64
	Repeats     int
	Population  int
	Generations int
	BudgetUSD   float64
	Delta       float64
	Gate        string
	// Seeds are proposals the user wants tried (--try FILE) as the first
	// generation, before the proposer's.
	Seeds []Proposal
}

func (o *Options) defaults() {
	setDefault(&o.MinCases, DefaultMinCases)
	setDefault(&o.Repeats, DefaultRepeats)
	setDefault(&o.Population, DefaultPopulation)
	setDefault(&o.Generations, DefaultGenerations)
	if o.Holdout <= 0 {
		o.Holdout = DefaultHoldout
	}
	if o.Delta <= 0 {
		o.Delta = DefaultDelta
	}
	if o.BudgetUSD <= 0 {
		o.BudgetUSD = DefaultBudgetUSD
	}
	if o.Gate == "" {
		o.Gate = GateDelta
	}
}

func setDefault(p *int, v int) {
	if *p <= 0 {
		*p = v
	}
}

// Scorer judges one case with one surface. Check refuses a surface that
// is not a valid rubric before anything is spent on it.
type Scorer interface {
	Check(s Surface) error
	Score(ctx context.Context, s Surface, c calibrate.Case) Cell
}

// Failure is a train case the current surface decides against its label:
// what the proposer sees. It carries no notes (they may name the bug).
type Failure struct {
	ID       string `json:"id"`
	Task     string `json:"task"`
	Diff     string `json:"diff"`
	Label    string `json:"label"`
	Decision string `json:"decision"`
}

// Request is one proposer call.
type Request struct {
	Surface  Surface
	Failures []Failure
	Want     int
}

// Proposer suggests edits. Its cost is returned even with an error.
type Proposer interface {
	Propose(ctx context.Context, r Request) ([]Proposal, float64, error)
}

// Deps are the seats and the sinks of a run.
type Deps struct {
	Scorer   Scorer
	Proposer Proposer
	// Progress receives one line per step, with the spend so far.
	Progress func(string)
	// Warn receives a dropped proposal's reason.
	Warn func(string)
	// Emit records an event (a generation, the decision); nil drops them.
	Emit func(events.Payload)
	// Bar, when set (a terminal), receives the live state after every
	// judged case — the step, how far it is and the spend — each to be
	// drawn in place of the last.
	Bar func(string)
}

// ErrBudget marks a run stopped by its budget; the result says what was
// done and the gate is not run on a half-measured population.
var ErrBudget = errors.New("budget spent")

// InputError is a problem with what the user gave: nothing was judged.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Run measures, proposes, gates and returns the result; its Outcome is
// one of Ship, Hold, NeedMoreData, Invalid. A *InputError means nothing
// was spent.
func Run(ctx context.Context, o Options, d Deps) (*Result, error) {
	o.defaults()
	if d.Progress == nil {
		d.Progress = func(string) {}
	}
	if d.Warn == nil {
		d.Warn = func(string) {}
	}
	if d.Emit == nil {
		d.Emit = func(events.Payload) {}
	}
	if err := d.Scorer.Check(o.Base); err != nil {
		return nil, &InputError{fmt.Errorf("the current surface: %w", err)}
	}
	seeds, err := checkSeeds(o, d.Scorer)
	if err != nil {
		return nil, err
	}
	r := &Result{Gate: o.Gate, Delta: o.Delta, BudgetUSD: o.BudgetUSD, Base: o.Base}
	r.split(o.Cases, o.Holdout)
	if n := len(o.Cases); n < o.MinCases {
		r.refuse(NeedMoreData, fmt.Sprintf("%d labelled case(s); tune.min_cases is %d: %d more real outcome(s) needed (calibrate --from-history collects them)", n, o.MinCases, o.MinCases-n))
		r.MoreCases = o.MinCases - n
		d.Emit(decided(o.ID, r, nil))
		return r, nil
	}
	if len(r.TrainIDs) == 0 || len(r.HeldOutIDs) < MinPairs {
		return nil, &InputError{fmt.Errorf("the split (--holdout %g) puts %d case(s) in train and %d in held-out: both need cases, held-out at least %d", o.Holdout, len(r.TrainIDs), len(r.HeldOutIDs), MinPairs)}
	}
	t := &tuner{o: o, d: d, r: r, byID: map[string]calibrate.Case{}}
	for _, c := range o.Cases {
		t.byID[c.ID] = c
	}
	err = t.run(ctx, seeds)
	if err != nil {
		r.refuse(Aborted, "stopped before a decision: "+err.Error())
	}
	d.Emit(decided(o.ID, r, err))
	return r, err
}

// decided is the run's closing event; a run stopped by an error (the
// budget, a signal) is "aborted".
func decided(id string, r *Result, err error) events.TuneDecided {
	e := events.TuneDecided{TaskID: id, Outcome: r.Outcome, Gate: r.Gate, MoreCases: r.MoreCases, SpentUSD: r.SpentUSD}
	if err != nil || e.Outcome == "" {
		e.Outcome = "aborted"
	}
	if d := r.Decision; d != nil {
		e.ValidPairs = d.Valid
		if l := d.Lift; l != nil {
			e.Lift, e.LiftLow, e.LiftHigh = &l.Mean, &l.Low, &l.High
		}
	}
	return e
}

// checkSeeds applies each seed proposal to the base: a seed that breaks
// the rubric is the user's input error, refused before anything is spent.
func checkSeeds(o Options, s Scorer) ([]Surface, error) {
	var out []Surface
	for i, p := range o.Seeds {
		cand, err := o.Base.Apply(p)
		if err == nil {
			err = s.Check(cand)
		}
		if err != nil {
			return nil, &InputError{fmt.Errorf("proposal %d of --try: %w", i+1, err)}
		}
		out = append(out, cand)
	}
	return out, nil
}

// tuner is one run's state.
type tuner struct {
	o    Options
	d    Deps
	r    *Result
	byID map[string]calibrate.Case
	seq  int
}

func (t *tuner) run(ctx context.Context, seeds []Surface) error {
	if err := t.measure(ctx); err != nil {
		return err
	}
	if t.r.Outcome != "" {
		return nil
	}
	if err := t.evolve(ctx, seeds); err != nil {
		return err
	}
	best := t.finalist()
	if best == nil {
		t.r.refuse(Hold, "no candidate beat the current surface on the train part")
		return nil
	}
	return t.gate(ctx, best)
}

// measure scores the current surface K times on the train part: the
// first rollout's failures feed the proposer, the spread of all K is the
// noise. Noise wider than the lift asked for refuses the run.
func (t *tuner) measure(ctx context.Context) error {
	for k := 0; k < t.o.Repeats; k++ {
		cells, err := t.scoreAll(ctx, t.o.Base, t.r.TrainIDs, fmt.Sprintf("current surface, rollout %d/%d", k+1, t.o.Repeats))
		if err != nil {
			return err
		}
		if k == 0 {
			t.r.BaselineTrain = cells
		}
		f := t.figures(cells, t.r.TrainIDs)
		if f.Agreement != nil {
			t.r.Noise.Rollouts = append(t.r.Noise.Rollouts, *f.Agreement)
		}
	}
	t.r.Baseline = t.figures(t.r.BaselineTrain, t.r.TrainIDs)
	n := &t.r.Noise
	if cv, ok := judgestats.CV(n.Rollouts); ok {
		n.CV = &cv
	}
	if m, lo, hi, ok := judgestats.MeanCI95(n.Rollouts); ok {
		n.Mean, n.Low, n.High, n.Known = m, lo, hi, true
		if half := (hi - lo) / 2; half > t.o.Delta {
			t.r.refuse(NeedMoreData, fmt.Sprintf("the current surface's agreement moves ±%.3f between rollouts (95%% interval of %d), more than the lift Δ %.3f asked for: more cases, more --repeats or a larger --delta", half, len(n.Rollouts), t.o.Delta))
		}
	}
	if t.r.Baseline.Decided == 0 {
		t.r.refuse(Invalid, "the current surface decided no train case: every judging failed")
	}
	return nil
}

// scoreAll judges ids with s, checking the budget before each call.
func (t *tuner) scoreAll(ctx context.Context, s Surface, ids []string, what string) (map[string]Cell, error) {
	cells := map[string]Cell{}
	for _, id := range ids {
		if err := t.afford(ctx); err != nil {
			return cells, err
		}
		c := t.d.Scorer.Score(ctx, s, t.byID[id])
		t.r.SpentUSD += c.CostUSD
		cells[id] = c
		if t.d.Bar != nil {
			t.d.Bar(fmt.Sprintf("%s: %d/%d judged, $%.4f of $%.2f spent", what, len(cells), len(ids), t.r.SpentUSD, t.o.BudgetUSD))
		}
	}
	t.d.Progress(fmt.Sprintf("%s: %d case(s) judged, $%.4f of $%.2f spent", what, len(ids), t.r.SpentUSD, t.o.BudgetUSD))
	return cells, nil
}

func (t *tuner) afford(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	if t.r.SpentUSD >= t.o.BudgetUSD {
		return fmt.Errorf("%w: $%.4f of $%.2f", ErrBudget, t.r.SpentUSD, t.o.BudgetUSD)
	}
	return nil
}

func (t *tuner) figures(cells map[string]Cell, ids []string) judgestats.Figures {
	var outs []judgestats.Outcome
	for _, id := range ids {
		if c, ok := cells[id]; ok {
			outs = append(outs, judgestats.Outcome{Label: t.byID[id].Label, Decision: decision(c)})
		}
	}
	return judgestats.Compute(outs)
}

func decision(c Cell) judgestats.Decision {
	switch c.Decision {
	case "pass":
		return judgestats.Pass
	case "fail":
		return judgestats.Fail
	}
	return judgestats.Failed
}

// finalist is the candidate with the best train agreement above the
// current surface's, earliest first on ties; nil when none beat it. Only
// one candidate meets the held-out part, so its 95% interval is not
// spent on a choice among many (the held-out cases choose nothing).
func (t *tuner) finalist() *Candidate {
	base := agreement(t.r.Baseline)
	var all []*Candidate
	for gi := range t.r.Generations {
		for ci := range t.r.Generations[gi].Candidates {
			c := &t.r.Generations[gi].Candidates[ci]
			if c.Error == "" && agreement(c.Train) > base {
				all = append(all, c)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return agreement(all[i].Train) > agreement(all[j].Train) })
	if len(all) == 0 {
		return nil
	}
	return all[0]
}

func agreement(f judgestats.Figures) float64 {
	if f.Agreement == nil {
		return -1
	}
	return *f.Agreement
}
