package calibrate

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"math"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judgestats"
)

// Report is the result of a calibration run; with --json it is printed
// as is, so its keys are a stable interface.
type Report struct {
	Mode  string `json:"mode"` // "jury" or "stop"
	Judge string `json:"judge"`
	Cases string `json:"cases_file"`
	// SkippedLines are malformed lines left out.
	SkippedLines int `json:"skipped_lines"`
	judgestats.Figures
	Threshold float64 `json:"threshold"`
	// PerJudge are each seat's own pass/fail calls against the labels.
	PerJudge map[string]judgestats.Figures `json:"per_judge_type"`
	Sweep    judgestats.Sweep              `json:"threshold_sweep"`
	Swap     *judgestats.Flips             `json:"swap,omitempty"`
	Jurors   *judgestats.Jurors            `json:"effective_jurors,omitempty"`
	Cost     CostTime                      `json:"cost_and_time"`
	Results  []CaseResult                  `json:"results"`
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
	ID    string `json:"id"`
	Label string `json:"label"`
	Judgement
	Cached  bool       `json:"cached,omitempty"`
	Swapped *Judgement `json:"swapped,omitempty"`
	Flipped bool       `json:"flipped,omitempty"`
}

func (c *calibration) report(skipped int, wall time.Duration) *Report {
	mode := "jury"
	if c.opts.Stop {
		mode = "stop"
	}
	rep := &Report{Mode: mode, Judge: c.judge.describe(), Cases: c.opts.CasesPath, SkippedLines: skipped,
		Threshold: c.judge.threshold(), PerJudge: map[string]judgestats.Figures{}, Complete: true}
	var outs []judgestats.Outcome
	var orig, swap []judgestats.Decision
	perJudge := map[string][]judgestats.Outcome{}
	var seatOrder []string
	seatScores := map[string][]float64{}
	var paid, cached, all []float64
	var durations []float64
	for i, cs := range c.cases {
		r := c.results[i]
		if !r.done {
			rep.Complete = false
			continue
		}
		cr := CaseResult{ID: cs.ID, Label: cs.Label, Judgement: r.Judgement, Cached: r.cached}
		outs = append(outs, judgestats.Outcome{Label: cs.Label, Decision: r.decision(), Score: r.Score})
		for _, s := range r.Judges {
			if _, ok := perJudge[s.Key]; !ok {
				seatOrder = append(seatOrder, s.Key)
				seatScores[s.Key] = make([]float64, len(c.cases))
				for k := range seatScores[s.Key] {
					seatScores[s.Key][k] = math.NaN()
				}
			}
			d := judgestats.Failed
			if !s.Failed && s.Score != nil {
				d = judgestats.Fail
				if s.Passed {
					d = judgestats.Pass
				}
				seatScores[s.Key][i] = *s.Score
			}
			perJudge[s.Key] = append(perJudge[s.Key], judgestats.Outcome{Label: cs.Label, Decision: d, Score: s.Score})
		}
		if c.opts.Stop {
			perJudge["stop"] = append(perJudge["stop"], judgestats.Outcome{Label: cs.Label, Decision: r.decision(), Score: r.Score})
		}
		for _, o := range []outcome{r, c.swapped[i]} {
			if !o.done {
				continue
			}
			if o.CostUSD != nil {
				all = append(all, *o.CostUSD)
				if o.cached {
					cached = append(cached, *o.CostUSD)
				} else {
					paid = append(paid, *o.CostUSD)
				}
			}
			if o.cached {
				rep.Cost.Cached++
			} else {
				rep.Cost.Judged++
				durations = append(durations, float64(o.DurationMS))
			}
		}
		if c.opts.Swap {
			if s := c.swapped[i]; s.done {
				sj := s.Judgement
				cr.Swapped = &sj
				orig = append(orig, r.decision())
				swap = append(swap, s.decision())
				cr.Flipped = r.decision() != judgestats.Failed && s.decision() != judgestats.Failed && r.decision() != s.decision()
			} else {
				rep.Complete = false
			}
		}
		rep.Results = append(rep.Results, cr)
	}
	rep.Figures = judgestats.Compute(outs)
	for k, v := range perJudge {
		rep.PerJudge[k] = judgestats.Compute(v)
	}
	rep.Sweep = judgestats.SweepThresholds(outs, 0.05, rep.Threshold)
	if c.opts.Swap {
		f := judgestats.FlipRate(orig, swap)
		rep.Swap = &f
	}
	if len(seatOrder) > 0 {
		var m [][]float64
		for _, k := range seatOrder {
			m = append(m, seatScores[k])
		}
		j := judgestats.EffectiveJurors(m)
		rep.Jurors = &j
	}
	rep.Cost.PaidUSD = sum(paid)
	rep.Cost.CachedUSD = sum(cached)
	if m, ok := judgestats.Mean(all); ok {
		rep.Cost.MeanCaseUSD = &m
	}
	if m, ok := judgestats.Mean(durations); ok {
		rep.Cost.MeanCaseMS = &m
	}
	rep.Cost.WallMS = wall.Milliseconds()
	return rep
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

// Text renders the report for a person.
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
	b.WriteString("\n")
	fmt.Fprintf(&b, "Decided:                 %d of %d (%d failed judging(s), counted neither pass nor fail)\n", r.Decided, r.N, r.Failures)
	fmt.Fprintf(&b, "Agreement with labels:   %s\n", pct(r.Agreement))
	fmt.Fprintf(&b, "Cohen's κ:               %s\n", num(r.Kappa))
	fmt.Fprintf(&b, "Catch rate:              %s of reject cases failed\n", pct(r.CatchRate))
	fmt.Fprintf(&b, "False interventions:     %s of accept cases failed\n", pct(r.FalseInterventionRate))
	c := r.Confusion
	b.WriteString("\n|              | failed | passed | no decision |\n|---|---|---|---|\n")
	fmt.Fprintf(&b, "| label reject | %d | %d | %d |\n", c.RejectFailed, c.RejectPassed, c.RejectErrors)
	fmt.Fprintf(&b, "| label accept | %d | %d | %d |\n", c.AcceptFailed, c.AcceptPassed, c.AcceptErrors)
	if len(r.PerJudge) > 0 {
		b.WriteString("\nPer judge (each seat's own pass/fail):\n\n| judge | decided | agreement | κ | catch | false interventions | failed |\n|---|---|---|---|---|---|---|\n")
		for _, k := range judgestats.SortedKeys(r.PerJudge) {
			f := r.PerJudge[k]
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %d |\n", k, f.Decided, pct(f.Agreement), num(f.Kappa), pct(f.CatchRate), pct(f.FalseInterventionRate), f.Failures)
		}
	}
	if j := r.Jurors; j != nil && j.Panel > 1 && j.Effective == nil {
		fmt.Fprintf(&b, "\nEffective jurors: n/a of %d (no two judges scored %d or more common cases with any spread)\n", j.Panel, judgestats.MinCommon)
	} else if j != nil && j.Panel > 1 {
		fmt.Fprintf(&b, "\nEffective jurors: %s of %d (mean pairwise correlation ρ̄ %s over %d pair(s))\n", num(j.Effective), j.Panel, num(j.MeanCorrelation), j.Pairs)
		if w := judgestats.JurorsWarning(*j); w != "" {
			fmt.Fprintf(&b, "**Warning:** %s\n", w)
		}
	}
	if r.Swap != nil {
		fmt.Fprintf(&b, "\nSwap test: %d of %d decision(s) flipped with the diff's files reversed (flip rate %s; %d pair(s) skipped: a run failed)\n",
			r.Swap.Flips, r.Swap.Pairs, pct(r.Swap.Rate), r.Swap.Skipped)
	}
	fmt.Fprintf(&b, "\nThreshold sweep over %d scored case(s) (pass iff score ≥ t; only the threshold varies):\n\n| t | agreement | κ | catch | false interventions |\n|---|---|---|---|---|\n", r.Sweep.Scored)
	for _, p := range r.Sweep.Points {
		if int(math.Round(p.Threshold*100))%10 != 0 && (r.Sweep.Best == nil || p.Threshold != r.Sweep.Best.Threshold) && math.Abs(p.Threshold-r.Threshold) > 1e-9 {
			continue // the text table shows every 0.1, the best and the configured threshold; --json has all
		}
		mark := ""
		if math.Abs(p.Threshold-r.Threshold) < 1e-9 {
			mark += " (configured)"
		}
		if r.Sweep.Best != nil && p.Threshold == r.Sweep.Best.Threshold {
			mark += " (best κ)"
		}
		fmt.Fprintf(&b, "| %.2f%s | %s | %s | %s | %s |\n", p.Threshold, mark, pct(p.Agreement), num(p.Kappa), pct(p.CatchRate), pct(p.FalseInterventionRate))
	}
	if r.Sweep.Best != nil {
		fmt.Fprintf(&b, "\nThe threshold that maximised κ: %.2f (κ %s; configured %g)\n", r.Sweep.Best.Threshold, num(r.Sweep.Best.Kappa), r.Threshold)
	}
	ct := r.Cost
	fmt.Fprintf(&b, "\nCost: %s paid in this run, %s reused from the cache; %s per judging on average\n", usd(ct.PaidUSD), usd(ct.CachedUSD), usd(ct.MeanCaseUSD))
	fmt.Fprintf(&b, "Time: %s wall, %d judging(s) made (%s each on average), %d from the cache\n",
		(time.Duration(ct.WallMS) * time.Millisecond).Round(time.Millisecond), ct.Judged, msText(ct.MeanCaseMS), ct.Cached)
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
	if len(wrong) > 0 {
		b.WriteString("\nCases to look at (disagreed with the label, flipped, or failed):\n")
		b.WriteString(strings.Join(wrong, "\n") + "\n")
	}
	return b.String()
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
	return fmt.Sprintf("%.2f", *p)
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
