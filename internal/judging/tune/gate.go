package tune

import (
	"fmt"
	"math"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// The outcomes of a tune run (spec §14.7).
const (
	Ship         = "ship"
	Hold         = "hold"
	NeedMoreData = "need-more-data"
	Invalid      = "invalid"
	// Aborted is a run its budget or a signal stopped before a decision;
	// its partial evidence is kept.
	Aborted = "aborted"
)

// The gates.
const (
	GateDelta  = "delta"
	GatePareto = "pareto"
)

// MinPairs is the fewest valid held-out pairs any decision needs.
const MinPairs = 3

// Pair is one held-out case judged by the current surface and by the
// candidate. A pair whose cells are not both decided is kept, marked
// Dropped, and never compared.
type Pair struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Before   Cell   `json:"before"`
	After    Cell   `json:"after"`
	Dropped  bool   `json:"dropped,omitempty"`
	Improved int    `json:"change"` // +1 the candidate agrees and the current did not, −1 the reverse
}

// Estimate is a paired mean difference and its 95% interval.
type Estimate struct {
	Mean float64 `json:"mean"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	N    int     `json:"n"`
}

// Decision is the gate's verdict on the finalist.
type Decision struct {
	Gate      string    `json:"gate"`
	Outcome   string    `json:"outcome"`
	Reason    string    `json:"reason"`
	Pairs     []Pair    `json:"pairs"`
	Valid     int       `json:"valid_pairs"`
	Lift      *Estimate `json:"lift,omitempty"`
	FalseInt  *Estimate `json:"false_intervention_change,omitempty"`
	Cost      *Estimate `json:"cost_per_case_change,omitempty"`
	MoreCases int       `json:"more_cases,omitempty"`
}

// Cell is one judging of one case by one surface.
type Cell struct {
	Decision string  `json:"decision"` // pass, fail or failed
	CostUSD  float64 `json:"cost_usd"`
	Error    string  `json:"error,omitempty"`
}

func (c Cell) decided() bool { return c.Decision == "pass" || c.Decision == "fail" }

// agrees is 1 when a decided cell matches the label.
func (c Cell) agrees(label string) float64 {
	if (label == judgestats.Accept && c.Decision == "pass") || (label == judgestats.Reject && c.Decision == "fail") {
		return 1
	}
	return 0
}

// Judge pairs the current surface's and the candidate's held-out cells
// case by case and decides. before and after are keyed by case id; a
// case either side lacks is unpaired evidence, which makes the run
// invalid rather than be compared with unlike cells.
func Judge(gate string, delta float64, labels map[string]string, ids []string, before, after map[string]Cell) Decision {
	d := Decision{Gate: gate}
	var lift, fi, cost []float64
	for _, id := range ids {
		b, okB := before[id]
		a, okA := after[id]
		if !okB || !okA {
			d.Outcome = Invalid
			d.Reason = fmt.Sprintf("unpaired evidence: held-out case %q was not judged by both surfaces", id)
			return d
		}
		p := Pair{ID: id, Label: labels[id], Before: b, After: a}
		if !b.decided() || !a.decided() {
			p.Dropped = true
			d.Pairs = append(d.Pairs, p)
			continue
		}
		diff := a.agrees(p.Label) - b.agrees(p.Label)
		p.Improved = int(diff)
		lift = append(lift, diff)
		cost = append(cost, a.CostUSD-b.CostUSD)
		if p.Label == judgestats.Accept {
			fi = append(fi, failed(a)-failed(b))
		}
		d.Pairs = append(d.Pairs, p)
	}
	d.Valid = len(lift)
	if d.Valid < MinPairs || d.Valid*2 <= len(ids) {
		d.Outcome = Invalid
		d.Reason = fmt.Sprintf("%d valid pair(s) of %d held-out case(s): a decision needs at least %d and more than half of them (an errored or missing cell removes its pair)",
			d.Valid, len(ids), MinPairs)
		return d
	}
	d.Lift, d.Cost, d.FalseInt = estimate(lift), estimate(cost), estimate(fi)
	if gate == GatePareto {
		pareto(&d)
	} else {
		byDelta(&d, delta)
	}
	return d
}

func failed(c Cell) float64 {
	if c.Decision == "fail" {
		return 1
	}
	return 0
}

func estimate(xs []float64) *Estimate {
	m, lo, hi, ok := judgestats.MeanCI95(xs)
	if !ok {
		return nil
	}
	return &Estimate{Mean: m, Low: lo, High: hi, N: len(xs)}
}

// byDelta ships when the paired lift is at least delta and its interval
// excludes 0; a lift that reaches delta with an interval that does not
// is need-more-data, with the cases that would narrow it enough.
func byDelta(d *Decision, delta float64) {
	l := d.Lift
	switch {
	case l.Mean >= delta && l.Low > 0:
		d.Outcome = Ship
		d.Reason = fmt.Sprintf("paired lift %+.3f ≥ Δ %.3f, 95%% interval [%+.3f, %+.3f] excludes 0 (%d pairs)", l.Mean, delta, l.Low, l.High, l.N)
	case l.Mean >= delta:
		d.Outcome = NeedMoreData
		d.MoreCases = moreCases(l)
		d.Reason = fmt.Sprintf("paired lift %+.3f ≥ Δ %.3f but its 95%% interval [%+.3f, %+.3f] includes 0 (%d pairs): about %d more held-out case(s) would decide it",
			l.Mean, delta, l.Low, l.High, l.N, d.MoreCases)
	default:
		d.Outcome = Hold
		d.Reason = fmt.Sprintf("paired lift %+.3f is below Δ %.3f (95%% interval [%+.3f, %+.3f], %d pairs)", l.Mean, delta, l.Low, l.High, l.N)
	}
}

// moreCases is how many more pairs would make the interval's half-width
// smaller than the lift, the spread staying what it is.
func moreCases(l *Estimate) int {
	half := (l.High - l.Low) / 2
	if l.Mean <= 0 || half <= 0 {
		return 0
	}
	need := float64(l.N) * (half / l.Mean) * (half / l.Mean)
	return max(1, int(math.Ceil(need))-l.N)
}

// pareto ships a candidate no worse on any objective (agreement up, false
// interventions down, cost per case down, by their point estimates) and
// significantly better on one (its interval excludes 0 on the good side).
func pareto(d *Decision) {
	worse, better := "", ""
	check := func(name string, e *Estimate, up bool) {
		if e == nil {
			return
		}
		m, good := e.Mean, e.Low > 0
		if !up {
			m, good = -e.Mean, e.High < 0
		}
		if m < -1e-12 && worse == "" {
			worse = name
		}
		if good && better == "" {
			better = name
		}
	}
	check("agreement", d.Lift, true)
	check("false-intervention rate", d.FalseInt, false)
	check("cost per case", d.Cost, false)
	switch {
	case worse != "":
		d.Outcome, d.Reason = Hold, "the candidate is worse on "+worse
	case better == "":
		d.Outcome, d.Reason = Hold, "the candidate is no worse on any objective but significantly better on none"
	default:
		d.Outcome, d.Reason = Ship, fmt.Sprintf("no worse on agreement, false-intervention rate or cost per case, and significantly better on %s (agreement lift %+.3f [%+.3f, %+.3f], %d pairs)",
			better, d.Lift.Mean, d.Lift.Low, d.Lift.High, d.Lift.N)
	}
}
