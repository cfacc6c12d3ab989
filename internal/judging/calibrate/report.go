package calibrate

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"math"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// Report is the result of a calibration run; with --json it is printed
// as is, so its keys are a stable interface.
type Report struct {
	Mode  string `json:"mode"` // "jury" or "stop"
	Judge string `json:"judge"`
	Cases string `json:"cases_file"`
	// SkippedLines are malformed lines left out.
	SkippedLines int `json:"skipped_lines"`
	// FromHistory counts the cases labelled by the user's own decisions
	// (calibrate --from-history): the figures then say how the judges
	// agree with this user.
	FromHistory int `json:"labels_from_history,omitempty"`
	judgestats.Figures
	Threshold float64 `json:"threshold"`
	// PerJudge are each seat's own pass/fail calls against the labels.
	PerJudge map[string]judgestats.Figures `json:"per_judge_type"`
	Sweep    judgestats.Sweep              `json:"threshold_sweep"`
	Swap     *judgestats.Flips             `json:"swap,omitempty"`
	// Rankings compare configurations the report measured side by side
	// (the best threshold and the configured one, the seats), ranking
	// only those whose 95% intervals do not overlap.
	Rankings []Comparison `json:"rankings,omitempty"`
	// Holdout is --holdout: the threshold picked on one part of the
	// cases and measured on the rest.
	Holdout *Holdout `json:"holdout,omitempty"`
	// Against is --against: this run compared with an earlier report.
	Against *Against           `json:"against,omitempty"`
	Jurors  *judgestats.Jurors `json:"effective_jurors,omitempty"`
	Cost    CostTime           `json:"cost_and_time"`
	Results []CaseResult       `json:"results"`
	// Mutation is --mutate's comparison of mutants with their originals;
	// the figures above then cover the accepted originals only.
	Mutation *MutationReport `json:"mutation,omitempty"`
	// Verification compares the figures with and without the
	// verification step, when the jury verifies its blocking findings.
	Verification *VerificationReport `json:"verification,omitempty"`
	// Repeat is --repeat: the K rollouts of every case and the
	// agreement's run-to-run noise over them.
	Repeat *Repeat `json:"repeat,omitempty"`
	// Complete is false after an interruption: the figures cover the
	// judged cases only.
	Complete bool `json:"complete"`
}

// CostTime is what the run cost and how long it took.
type CostTime struct {
	// PaidUSD is what this run's model calls reported costing; CachedUSD
	// what the cached judgements it reused had cost when they were made.
	PaidUSD   *float64 `json:"paid_usd"`
	CachedUSD *float64 `json:"cached_usd"`
	// MeanCaseUSD is the mean cost of one judging, cached or not, over
	// judgings that reported a cost.
	MeanCaseUSD *float64 `json:"mean_case_usd"`
	Judged      int      `json:"judged"`
	Cached      int      `json:"cached"`
	WallMS      int64    `json:"wall_ms"`
	// MeanCaseMS is the mean duration of one judging made in this run.
	MeanCaseMS *float64 `json:"mean_case_ms"`
}

// CaseResult is one case's outcome.
type CaseResult struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Source string `json:"source,omitempty"`
	Judgement
	Cached  bool       `json:"cached,omitempty"`
	Swapped *Judgement `json:"swapped,omitempty"`
	Flipped bool       `json:"flipped,omitempty"`
}

// report computes the figures over the cases judged so far; a case not
// yet judged (or, with --swap, not yet judged reversed) marks the report
// incomplete.
func (c *calibration) report(skipped int, wall time.Duration) *Report {
	mode := "jury"
	if c.opts.Stop {
		mode = "stop"
	}
	rep := &Report{Mode: mode, Judge: c.judge.describe(), Cases: c.opts.CasesPath, SkippedLines: skipped,
		Threshold: c.judge.threshold(), PerJudge: map[string]judgestats.Figures{}, Complete: true}
	t := tally{perJudge: map[string][]judgestats.Outcome{}, seatScores: map[string][]float64{}, holdout: c.opts.Holdout}
	for i, cs := range c.cases {
		r := c.results[i]
		if !r.done {
			rep.Complete = false
			continue
		}
		if c.mut.mutant(i) {
			// A mutant counts in the cost and the mutation section only.
			t.addCost(&rep.Cost, r)
			continue
		}
		cr := CaseResult{ID: cs.ID, Label: cs.Label, Source: cs.Source, Judgement: r.Judgement, Cached: r.cached}
		if strings.HasPrefix(cs.Source, HistorySource) {
			rep.FromHistory++
		}
		t.outs = append(t.outs, judgestats.Outcome{Label: cs.Label, Decision: r.decision(), Score: r.Score})
		t.ids = append(t.ids, cs.ID)
		t.addSeats(i, len(c.cases), cs.Label, r.Judges)
		if c.opts.Stop {
			t.perJudge["stop"] = append(t.perJudge["stop"], judgestats.Outcome{Label: cs.Label, Decision: r.decision(), Score: r.Score})
		}
		t.addCost(&rep.Cost, r, c.swapped[i])
		if c.opts.Swap {
			if s := c.swapped[i]; s.done {
				t.addSwap(&cr, r, s)
			} else {
				rep.Complete = false
			}
		}
		rep.Results = append(rep.Results, cr)
	}
	// --repeat's other rollouts were paid for too (or reused): the cost
	// and time count every judging, not the first rollout's alone.
	for _, outs := range c.repeats {
		t.addCost(&rep.Cost, outs...)
	}
	t.fill(rep, c.opts.Swap)
	if c.mut != nil {
		rep.Mutation = c.mut.report(c)
	}
	rep.Verification = verificationReport(rep, c.judge)
	rep.Repeat = c.repeatReport(rep)
	rep.Cost.WallMS = wall.Milliseconds()
	return rep
}

// tally gathers, case by case, what a report's figures are computed from.
type tally struct {
	outs []judgestats.Outcome
	// ids[i] is the id of the case of outs[i]; holdout is --holdout.
	ids        []string
	holdout    float64
	orig, swap []judgestats.Decision
	perJudge   map[string][]judgestats.Outcome
	// seatOrder keeps the seats in the order first seen, so that the
	// effective-jurors matrix does not depend on map order; seatScores
	// holds each seat's score per case index, NaN where it gave none.
	seatOrder  []string
	seatScores map[string][]float64
	// paid, cached and all are judging costs; durations are the times of
	// judgings made in this run (a cached one took none).
	paid, cached, all []float64
	durations         []float64
}

// addSeats counts each jury seat's own pass/fail call on case i of n.
func (t *tally) addSeats(i, n int, label string, seats []Seat) {
	for _, s := range seats {
		if _, ok := t.perJudge[s.Key]; !ok {
			t.seatOrder = append(t.seatOrder, s.Key)
			t.seatScores[s.Key] = make([]float64, n)
			for k := range t.seatScores[s.Key] {
				t.seatScores[s.Key][k] = math.NaN()
			}
		}
		d := judgestats.Failed
		if !s.Failed && s.Score != nil {
			d = judgestats.Fail
			if s.Passed {
				d = judgestats.Pass
			}
			t.seatScores[s.Key][i] = *s.Score
		}
		t.perJudge[s.Key] = append(t.perJudge[s.Key], judgestats.Outcome{Label: label, Decision: d, Score: s.Score})
	}
}

// addCost counts the cost and time of a case's judgings, original and
// swapped, into ct's counts and the tally's lists.
func (t *tally) addCost(ct *CostTime, judgings ...outcome) {
	for _, o := range judgings {
		if !o.done {
			continue
		}
		if o.CostUSD != nil {
			t.all = append(t.all, *o.CostUSD)
			if o.cached {
				t.cached = append(t.cached, *o.CostUSD)
			} else {
				t.paid = append(t.paid, *o.CostUSD)
			}
		}
		if o.cached {
			ct.Cached++
		} else {
			ct.Judged++
			t.durations = append(t.durations, float64(o.DurationMS))
		}
	}
}

// addSwap records a case judged both ways; a failed run on either side is
// no flip.
func (t *tally) addSwap(cr *CaseResult, r, s outcome) {
	sj := s.Judgement
	cr.Swapped = &sj
	t.orig = append(t.orig, r.decision())
	t.swap = append(t.swap, s.decision())
	cr.Flipped = r.decision() != judgestats.Failed && s.decision() != judgestats.Failed && r.decision() != s.decision()
}

// fill computes rep's figures, per-judge figures, sweep, flip rate,
// effective jurors and costs from the tally.
func (t *tally) fill(rep *Report, swapped bool) {
	rep.Figures = judgestats.Compute(t.outs)
	for k, v := range t.perJudge {
		rep.PerJudge[k] = judgestats.Compute(v)
	}
	rep.Sweep = judgestats.SweepThresholds(t.outs, 0.05, rep.Threshold)
	if swapped {
		f := judgestats.FlipRate(t.orig, t.swap)
		rep.Swap = &f
	}
	rep.Rankings = rankings(rep)
	if t.holdout > 0 {
		rep.Holdout = splitSweep(t.outs, t.ids, t.holdout, rep.Threshold)
	}
	if len(t.seatOrder) > 0 {
		var m [][]float64
		for _, k := range t.seatOrder {
			m = append(m, t.seatScores[k])
		}
		j := judgestats.EffectiveJurors(m)
		rep.Jurors = &j
	}
	rep.Cost.PaidUSD = sum(t.paid)
	rep.Cost.CachedUSD = sum(t.cached)
	if m, ok := judgestats.Mean(t.all); ok {
		rep.Cost.MeanCaseUSD = &m
	}
	if m, ok := judgestats.Mean(t.durations); ok {
		rep.Cost.MeanCaseMS = &m
	}
}

func sum(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	s = math.Round(s*1e10) / 1e10
	return &s
}

// Text renders the report for a person: the headline figures, then a
// section each for the seats, the jurors' independence, the swap test,
// the threshold sweep, cost and time, and the cases to look at.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## tribunal calibration — %d case(s) from %s\n\n", r.N, r.Cases)
	fmt.Fprintf(&b, "Judge: %s\n", r.Judge)
	if !r.Complete {
		b.WriteString("Interrupted: the figures cover the cases judged so far.\n")
	}
	if r.SkippedLines > 0 {
		fmt.Fprintf(&b, "Skipped: %d malformed line(s)\n", r.SkippedLines)
	}
	if r.FromHistory > 0 {
		fmt.Fprintf(&b, "Labels: %d of the %d case(s) come from your own decisions (--from-history): the figures say how this judge configuration agrees with you\n", r.FromHistory, r.N)
	}
	b.WriteString("\n")
	r.writeFigures(&b)
	r.writePerJudge(&b)
	r.writeJurors(&b)
	if r.Swap != nil {
		fmt.Fprintf(&b, "\nSwap test: %d of %d decision(s) flipped with the diff's files reversed (flip rate %s; %d pair(s) skipped: a run failed)\n",
			r.Swap.Flips, r.Swap.Pairs, pctCI(r.Swap.Rate, r.Swap.RateCI), r.Swap.Skipped)
	}
	r.writeSweep(&b)
	r.writeVerification(&b)
	r.writeHoldout(&b)
	r.writeRankings(&b)
	r.writeRepeat(&b)
	r.writeAgainst(&b)
	r.writeMutation(&b)
	ct := r.Cost
	b.WriteString("\n" + ct.costLine() + "\n")
	fmt.Fprintf(&b, "Time: %s wall, %d judging(s) made (%s each on average), %d from the cache\n",
		(time.Duration(ct.WallMS) * time.Millisecond).Round(time.Millisecond), ct.Judged, msText(ct.MeanCaseMS), ct.Cached)
	if wrong := r.casesToLookAt(); len(wrong) > 0 {
		b.WriteString("\nCases to look at (disagreed with the label, flipped, or failed):\n")
		b.WriteString(strings.Join(wrong, "\n") + "\n")
	}
	return b.String()
}

// writeFigures writes the verdict's agreement with the labels and its
// confusion matrix.
func (r *Report) writeFigures(b *strings.Builder) {
	fmt.Fprintf(b, "Decided:                 %d of %d (%d failed judging(s), counted neither pass nor fail)\n", r.Decided, r.N, r.Failures)
	fmt.Fprintf(b, "Agreement with labels:   %s\n", pctCI(r.Agreement, r.AgreementCI))
	fmt.Fprintf(b, "Cohen's κ:               %s\n", numCI(r.Kappa, r.KappaCI))
	fmt.Fprintf(b, "Catch rate:              %s of reject cases failed\n", pctCI(r.CatchRate, r.CatchRateCI))
	fmt.Fprintf(b, "False interventions:     %s of accept cases failed\n", pctCI(r.FalseInterventionRate, r.FalseInterventionRateCI))
	b.WriteString(intervalNote)
	c := r.Confusion
	b.WriteString("\n|              | failed | passed | no decision |\n|---|---|---|---|\n")
	fmt.Fprintf(b, "| label reject | %d | %d | %d |\n", c.RejectFailed, c.RejectPassed, c.RejectErrors)
	fmt.Fprintf(b, "| label accept | %d | %d | %d |\n", c.AcceptFailed, c.AcceptPassed, c.AcceptErrors)
}

// writePerJudge writes each seat's own figures, when there are seats.
func (r *Report) writePerJudge(b *strings.Builder) {
	if len(r.PerJudge) == 0 {
		return
	}
	b.WriteString("\nPer judge (each seat's own pass/fail):\n\n| judge | decided | agreement | κ | catch | false interventions | failed |\n|---|---|---|---|---|---|---|\n")
	for _, k := range judgestats.SortedKeys(r.PerJudge) {
		f := r.PerJudge[k]
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %d |\n", k, f.Decided, pctCI(f.Agreement, f.AgreementCI), numCI(f.Kappa, f.KappaCI),
			pctCI(f.CatchRate, f.CatchRateCI), pctCI(f.FalseInterventionRate, f.FalseInterventionRateCI), f.Failures)
	}
}

// writeJurors writes the effective number of independent jurors of a
// panel of two or more, or why it could not be computed.
func (r *Report) writeJurors(b *strings.Builder) {
	j := r.Jurors
	switch {
	case j == nil || j.Panel <= 1:
	case j.Effective == nil:
		fmt.Fprintf(b, "\nEffective jurors: n/a of %d (no two judges scored %d or more common cases with any spread)\n", j.Panel, judgestats.MinCommon)
	default:
		fmt.Fprintf(b, "\nEffective jurors: %s of %d (mean pairwise correlation ρ̄ %s over %d pair(s))\n", num(j.Effective), j.Panel, num(j.MeanCorrelation), j.Pairs)
		if w := judgestats.JurorsWarning(*j); w != "" {
			fmt.Fprintf(b, "**Warning:** %s\n", w)
		}
	}
}

// writeSweep writes the threshold sweep. The text table shows every 0.1,
// the best and the configured threshold; --json has all the points.
func (r *Report) writeSweep(b *strings.Builder) {
	fmt.Fprintf(b, "\nThreshold sweep over %d scored case(s) (pass iff score ≥ t; only the threshold varies):\n\n| t | agreement | κ | catch | false interventions |\n|---|---|---|---|---|\n", r.Sweep.Scored)
	for _, p := range r.Sweep.Points {
		if int(math.Round(p.Threshold*100))%10 != 0 && (r.Sweep.Best == nil || p.Threshold != r.Sweep.Best.Threshold) && math.Abs(p.Threshold-r.Threshold) > 1e-9 {
			continue
		}
		mark := ""
		if math.Abs(p.Threshold-r.Threshold) < 1e-9 {
			mark += " (configured)"
		}
		if r.Sweep.Best != nil && p.Threshold == r.Sweep.Best.Threshold {
			mark += " (best κ)"
		}
		fmt.Fprintf(b, "| %.2f%s | %s | %s | %s | %s |\n", p.Threshold, mark, pctCI(p.Agreement, p.AgreementCI), numCI(p.Kappa, p.KappaCI),
			pctCI(p.CatchRate, p.CatchRateCI), pctCI(p.FalseInterventionRate, p.FalseInterventionRateCI))
	}
	if r.Sweep.Best != nil {
		fmt.Fprintf(b, "\nThe threshold that maximised κ: %.2f (κ %s; configured %s)\n", r.Sweep.Best.Threshold, numCI(r.Sweep.Best.Kappa, r.Sweep.Best.KappaCI), rules.Num(r.Threshold))
		if r.Holdout == nil {
			b.WriteString("It was picked on the same cases it is measured on, so these figures flatter it; --holdout FRACTION measures a pick on cases it never saw.\n")
		}
	}
}

// casesToLookAt lists, one line each, the cases whose decision disagreed
// with the label, flipped in the swap test, or failed.
func (r *Report) casesToLookAt() []string {
	var wrong []string
	for _, res := range r.Results {
		if (res.Decision == "pass" && res.Label == judgestats.Reject) || (res.Decision == "fail" && res.Label == judgestats.Accept) || res.Flipped || res.Decision == "failed" {
			line := fmt.Sprintf("- %s: label %s, decision %s", res.ID, res.Label, res.Decision)
			if res.Score != nil {
				line += fmt.Sprintf(" (score %.2f)", *res.Score)
			}
			if res.Error != "" {
				line += " — " + safetext.FirstLine(res.Error, 200)
			}
			if res.Flipped {
				line += fmt.Sprintf("; swapped: %s", res.Swapped.Decision)
			}
			wrong = append(wrong, line)
		}
	}
	return wrong
}

func pct(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
}

func num(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fixed2(*p)
}

// fixed2 prints x with two decimals, never as "-0.00".
func fixed2(x float64) string {
	if math.Abs(x) < 0.005 {
		x = 0
	}
	return fmt.Sprintf("%.2f", x)
}

// costLine is the report's cost sentence. A figure nobody reported is
// said in words (a model CLI may report no cost), never as "unknown paid".
func (ct CostTime) costLine() string {
	paid := "nothing paid in this run"
	switch {
	case ct.PaidUSD != nil:
		paid = usd(ct.PaidUSD) + " paid in this run"
	case ct.Judged > 0:
		paid = "not reported by the model CLI for this run"
	}
	cached := "nothing reused from the cache"
	switch {
	case ct.CachedUSD != nil:
		cached = usd(ct.CachedUSD) + " reused from the cache"
	case ct.Cached > 0:
		cached = fmt.Sprintf("not recorded for the %d judging(s) reused from the cache", ct.Cached)
	}
	line := "Cost: " + paid + ", " + cached
	if ct.MeanCaseUSD != nil {
		line += "; " + usd(ct.MeanCaseUSD) + " per judging on average"
	}
	return line
}

func usd(p *float64) string {
	if p == nil {
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", *p)
}

func msText(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return (time.Duration(*p) * time.Millisecond).Round(time.Millisecond).String()
}
