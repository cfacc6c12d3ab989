// Package judgestats computes how well judges agree with labelled cases and
// with each other: agreement, Cohen's κ, catch and false-intervention
// rates, threshold sweeps, swap flip rates and the effective number of
// independent jurors.
package judgestats

import (
	"fmt"
	"math"
	"sort"
)

// Labels of a case: what a correct gate would have decided.
const (
	Accept = "accept"
	Reject = "reject"
)

// Decision is what a judge or the whole gate decided about one case.
type Decision int

const (
	// Failed means the judge call failed (error, timeout, unreadable
	// answer): no decision. It is counted apart, never as pass or fail.
	Failed Decision = iota
	Pass
	Fail
)

func (d Decision) String() string {
	switch d {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	default:
		return "failed"
	}
}

// Outcome is one case's label and the decision made about it.
type Outcome struct {
	Label    string
	Decision Decision
	// Score is the score the decision came from, when there is one (the
	// aggregate for a jury, the single score of an advisory judge).
	Score *float64
}

// Confusion is the confusion matrix of decisions against labels. A
// "reject" case is the one a judge is there to catch, so failing it is a
// catch and failing an "accept" case is a false intervention.
type Confusion struct {
	RejectFailed int `json:"reject_failed"` // caught
	RejectPassed int `json:"reject_passed"` // missed
	AcceptFailed int `json:"accept_failed"` // false intervention
	AcceptPassed int `json:"accept_passed"`
	// Errors are cases with no decision (the judge failed), by label.
	RejectErrors int `json:"reject_errors"`
	AcceptErrors int `json:"accept_errors"`
}

// Decided is the number of cases with a decision.
func (c Confusion) Decided() int {
	return c.RejectFailed + c.RejectPassed + c.AcceptFailed + c.AcceptPassed
}

// Figures are the headline numbers of one set of outcomes. A rate whose
// denominator is zero is nil (undefined), never zero.
type Figures struct {
	N                     int       `json:"n"`
	Decided               int       `json:"decided"`
	Failures              int       `json:"failures"`
	Agreement             *float64  `json:"agreement"`
	Kappa                 *float64  `json:"kappa"`
	CatchRate             *float64  `json:"catch_rate"`
	FalseInterventionRate *float64  `json:"false_intervention_rate"`
	Confusion             Confusion `json:"confusion"`
	// Each rate's 95% interval (Wilson for the proportions, a seeded
	// bootstrap for κ); nil when the rate is.
	AgreementCI             *Interval `json:"agreement_ci"`
	KappaCI                 *Interval `json:"kappa_ci"`
	CatchRateCI             *Interval `json:"catch_rate_ci"`
	FalseInterventionRateCI *Interval `json:"false_intervention_rate_ci"`
}

// Tally builds the confusion matrix of outcomes. Outcomes whose label is
// neither accept nor reject are ignored (the caller validates labels).
func Tally(outs []Outcome) Confusion {
	var c Confusion
	for _, o := range outs {
		switch {
		case o.Label == Reject && o.Decision == Fail:
			c.RejectFailed++
		case o.Label == Reject && o.Decision == Pass:
			c.RejectPassed++
		case o.Label == Reject:
			c.RejectErrors++
		case o.Label == Accept && o.Decision == Fail:
			c.AcceptFailed++
		case o.Label == Accept && o.Decision == Pass:
			c.AcceptPassed++
		case o.Label == Accept:
			c.AcceptErrors++
		}
	}
	return c
}

// Compute returns the figures of outcomes.
func Compute(outs []Outcome) Figures {
	c := Tally(outs)
	f := Figures{N: c.Decided() + c.RejectErrors + c.AcceptErrors, Decided: c.Decided(), Failures: c.RejectErrors + c.AcceptErrors, Confusion: c}
	f.Agreement = ratio(c.RejectFailed+c.AcceptPassed, c.Decided())
	f.Kappa = Kappa(c)
	f.CatchRate = ratio(c.RejectFailed, c.RejectFailed+c.RejectPassed)
	f.FalseInterventionRate = ratio(c.AcceptFailed, c.AcceptFailed+c.AcceptPassed)
	f.AgreementCI = Wilson(c.RejectFailed+c.AcceptPassed, c.Decided())
	f.KappaCI = BootstrapKappa(c)
	f.CatchRateCI = Wilson(c.RejectFailed, c.RejectFailed+c.RejectPassed)
	f.FalseInterventionRateCI = Wilson(c.AcceptFailed, c.AcceptFailed+c.AcceptPassed)
	return f
}

// Kappa is Cohen's κ between the decisions (pass/fail) and the labels
// (accept/reject) over the decided cases: (p_o − p_e)/(1 − p_e), where p_o
// is the observed agreement and p_e the agreement expected by chance from
// the two marginal distributions. It is nil when undefined: no decided
// case, or either side never varies (every label the same, or every
// decision the same). Then p_e = p_o and the formula gives 0 (or −0 in
// floating point) whatever the judge did, which would read as "no better
// than chance" when the cases simply cannot tell.
func Kappa(c Confusion) *float64 {
	n := float64(c.Decided())
	if n == 0 {
		return nil
	}
	po := float64(c.RejectFailed+c.AcceptPassed) / n
	pReject := float64(c.RejectFailed+c.RejectPassed) / n
	pFail := float64(c.RejectFailed+c.AcceptFailed) / n
	if pReject == 0 || pReject == 1 || pFail == 0 || pFail == 1 {
		return nil
	}
	pe := pReject*pFail + (1-pReject)*(1-pFail)
	k := (po - pe) / (1 - pe)
	return &k
}

func ratio(num, den int) *float64 {
	if den == 0 {
		return nil
	}
	r := float64(num) / float64(den)
	return &r
}

// SweepPoint is the figures that a score threshold would have produced:
// a case passes when its score is at least Threshold.
type SweepPoint struct {
	Threshold             float64  `json:"threshold"`
	Agreement             *float64 `json:"agreement"`
	Kappa                 *float64 `json:"kappa"`
	CatchRate             *float64 `json:"catch_rate"`
	FalseInterventionRate *float64 `json:"false_intervention_rate"`
	// The rates' 95% intervals, as in Figures.
	AgreementCI             *Interval `json:"agreement_ci"`
	KappaCI                 *Interval `json:"kappa_ci"`
	CatchRateCI             *Interval `json:"catch_rate_ci"`
	FalseInterventionRateCI *Interval `json:"false_intervention_rate_ci"`
}

// Sweep is a threshold sweep and the threshold that maximised κ.
type Sweep struct {
	Points []SweepPoint `json:"points"`
	// Best is the point with the highest κ; nil when no threshold gives a
	// defined κ or the scored cases carry only one label (no threshold can
	// then tell good work from bad). Ties go to the threshold nearest the
	// configured one, then to the lower threshold.
	Best *SweepPoint `json:"best"`
	// Scored is how many cases had a score to sweep over.
	Scored int `json:"scored"`
}

// SweepThresholds replays "pass iff score ≥ t" for t = 0, step, 2·step, …,
// 1 over the outcomes that have a score. Only the score threshold varies:
// the rest of a gate (floors, meta-judge, other checks) is not replayed,
// so a point's figures are those of a pure score threshold.
func SweepThresholds(outs []Outcome, step, configured float64) Sweep {
	var s Sweep
	labels := map[string]bool{}
	for _, o := range outs {
		if o.Score != nil && (o.Label == Accept || o.Label == Reject) {
			s.Scored++
			labels[o.Label] = true
		}
	}
	if step <= 0 {
		step = 0.05
	}
	steps := int(math.Round(1 / step))
	for i := 0; i <= steps; i++ {
		t := math.Round(float64(i)*step*1e6) / 1e6
		s.Points = append(s.Points, AtThreshold(outs, t))
	}
	for i := range s.Points {
		p := &s.Points[i]
		if p.Kappa == nil || len(labels) < 2 {
			continue
		}
		if s.Best == nil || *p.Kappa > *s.Best.Kappa+1e-12 ||
			(math.Abs(*p.Kappa-*s.Best.Kappa) <= 1e-12 && math.Abs(p.Threshold-configured) < math.Abs(s.Best.Threshold-configured)-1e-12) {
			s.Best = p
		}
	}
	if s.Best != nil {
		b := *s.Best
		s.Best = &b
	}
	return s
}

// AtThreshold is the figures of "pass iff score ≥ t" over the outcomes
// that have a score.
func AtThreshold(outs []Outcome, t float64) SweepPoint {
	var replay []Outcome
	for _, o := range outs {
		if o.Score == nil {
			continue
		}
		d := Fail
		if *o.Score >= t {
			d = Pass
		}
		replay = append(replay, Outcome{Label: o.Label, Decision: d})
	}
	f := Compute(replay)
	return SweepPoint{Threshold: t, Agreement: f.Agreement, Kappa: f.Kappa, CatchRate: f.CatchRate, FalseInterventionRate: f.FalseInterventionRate,
		AgreementCI: f.AgreementCI, KappaCI: f.KappaCI, CatchRateCI: f.CatchRateCI, FalseInterventionRateCI: f.FalseInterventionRateCI}
}

// Flips is the swap test: each case judged twice, the second time with the
// diff's files in reverse order.
type Flips struct {
	Pairs int      `json:"pairs"` // cases decided both times
	Flips int      `json:"flips"` // of which the decision changed
	Rate  *float64 `json:"flip_rate"`
	// RateCI is the flip rate's 95% Wilson interval.
	RateCI *Interval `json:"flip_rate_ci"`
	// Skipped are cases where either run failed.
	Skipped int `json:"skipped"`
}

// FlipRate counts decisions that changed between the original and the
// swapped run; a pair where either run has no decision is skipped.
func FlipRate(original, swapped []Decision) Flips {
	var f Flips
	for i := range original {
		if i >= len(swapped) || original[i] == Failed || swapped[i] == Failed {
			f.Skipped++
			continue
		}
		f.Pairs++
		if original[i] != swapped[i] {
			f.Flips++
		}
	}
	f.Rate = ratio(f.Flips, f.Pairs)
	f.RateCI = Wilson(f.Flips, f.Pairs)
	return f
}

// Jurors is the effective number of independent jurors of a panel.
type Jurors struct {
	// Panel is the number of judges n.
	Panel int `json:"panel"`
	// Pairs is how many judge pairs had enough common scores (at least
	// three, with variance on both sides) for a correlation.
	Pairs int `json:"pairs"`
	// MeanCorrelation is ρ̄, the mean pairwise Pearson correlation; nil
	// when no pair could be correlated.
	MeanCorrelation *float64 `json:"mean_correlation"`
	// Effective is n_eff = n / (1 + (n − 1)·ρ̄), with a negative ρ̄ taken as
	// 0 (judges that disagree more than chance are not worth more than n);
	// nil when ρ̄ is.
	Effective *float64 `json:"effective_jurors"`
}

// MinCommon is the fewest cases two judges must both have scored for
// their correlation to count.
const MinCommon = 3

// EffectiveJurors computes ρ̄ and n_eff from each judge's scores, indexed by
// case: scores[j][i] is judge j's score of case i, NaN when it gave none.
func EffectiveJurors(scores [][]float64) Jurors {
	j := Jurors{Panel: len(scores)}
	var sum float64
	for a := 0; a < len(scores); a++ {
		for b := a + 1; b < len(scores); b++ {
			r, ok := Pearson(scores[a], scores[b])
			if !ok {
				continue
			}
			sum += r
			j.Pairs++
		}
	}
	if j.Pairs == 0 {
		if j.Panel == 1 {
			one := 1.0
			j.Effective = &one
		}
		return j
	}
	rho := sum / float64(j.Pairs)
	j.MeanCorrelation = &rho
	eff := NEff(j.Panel, rho)
	j.Effective = &eff
	return j
}

// NEff is n / (1 + (n − 1)·ρ), with ρ below 0 taken as 0.
func NEff(n int, rho float64) float64 {
	if n <= 0 {
		return 0
	}
	rho = math.Min(math.Max(rho, 0), 1)
	return float64(n) / (1 + float64(n-1)*rho)
}

// Pearson is the correlation of x and y over the indices where both are
// numbers. ok is false with fewer than MinCommon such indices or when
// either side is constant there.
func Pearson(x, y []float64) (float64, bool) {
	var xs, ys []float64
	for i := range x {
		if i >= len(y) || math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			continue
		}
		xs = append(xs, x[i])
		ys = append(ys, y[i])
	}
	n := float64(len(xs))
	if len(xs) < MinCommon {
		return 0, false
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx < 1e-15 || syy < 1e-15 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// Mean returns the mean of xs and whether there was any.
func Mean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs)), true
}

// SortedKeys returns m's keys in order, for stable reports.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// JurorsWarning is the warning for a panel of three or more judges whose
// verdicts are so correlated that together they are worth fewer than 1.5
// independent ones; "" otherwise.
func JurorsWarning(j Jurors) string {
	if j.Panel < 3 || j.Effective == nil || *j.Effective >= 1.5 {
		return ""
	}
	return fmt.Sprintf("the %d judges are worth %.2f independent juror(s): their scores move together (ρ̄ %.2f); a more varied panel (other models, types or prompts) would add more than more seats",
		j.Panel, *j.Effective, *j.MeanCorrelation)
}
