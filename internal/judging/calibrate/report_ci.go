package calibrate

import (
	"fmt"
	"math"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// intervalNote says, under the headline figures, what the bracketed
// intervals are.
const intervalNote = "(95% intervals in brackets: Wilson for the rates, a seeded bootstrap of the decided cases for κ — n/a when too few resamples give one)\n"

// Comparison is one figure of two configurations, A and B, ranked only
// when their 95% intervals do not overlap.
type Comparison struct {
	Figure string `json:"figure"`
	A      string `json:"a"`
	B      string `json:"b"`
	// Undefined says why the two cannot be compared at all (a figure or
	// its interval is n/a on one side); "" when they can.
	Undefined string `json:"undefined,omitempty"`
	judgestats.Ranking
}

// compare ranks figure a of A against b of B over n cases.
func compare(figure, nameA, nameB string, a, b *float64, ia, ib *judgestats.Interval, n int) Comparison {
	c := Comparison{Figure: figure, A: nameA, B: nameB, Ranking: judgestats.Rank(a, b, ia, ib, n)}
	c.Undefined = undefined(figure, nameA, nameB, a, b, ia, ib)
	return c
}

// undefined says which side's figure or interval is n/a; "" for none.
func undefined(figure, nameA, nameB string, a, b *float64, ia, ib *judgestats.Interval) string {
	switch {
	case a == nil:
		return fmt.Sprintf("the %s is n/a for %s", figure, nameA)
	case b == nil:
		return fmt.Sprintf("the %s is n/a for %s", figure, nameB)
	case ia == nil:
		return fmt.Sprintf("the %s's interval is n/a for %s", figure, nameA)
	case ib == nil:
		return fmt.Sprintf("the %s's interval is n/a for %s", figure, nameB)
	}
	return ""
}

// rankings compares what one report can compare: the threshold that
// maximised κ with the configured one (by κ, over the scored cases), and
// each pair of seats (by agreement, over the cases).
func rankings(rep *Report) []Comparison {
	var out []Comparison
	if best := rep.Sweep.Best; best != nil && math.Abs(best.Threshold-rep.Threshold) > 1e-9 {
		conf := judgestats.AtThreshold(nil, rep.Threshold)
		for _, p := range rep.Sweep.Points {
			if math.Abs(p.Threshold-rep.Threshold) < 1e-9 {
				conf = p
			}
		}
		out = append(out, compare("κ", fmt.Sprintf("threshold %.2f", best.Threshold), fmt.Sprintf("threshold %.2f (configured)", rep.Threshold),
			best.Kappa, conf.Kappa, best.KappaCI, conf.KappaCI, rep.Sweep.Scored))
	}
	keys := judgestats.SortedKeys(rep.PerJudge)
	for i, a := range keys {
		for _, b := range keys[i+1:] {
			fa, fb := rep.PerJudge[a], rep.PerJudge[b]
			out = append(out, compare("agreement", a, b, fa.Agreement, fb.Agreement, fa.AgreementCI, fb.AgreementCI, rep.N))
		}
	}
	return out
}

// writeRankings writes one line per comparison: which ranks above, or
// that the cases cannot rank them and how many more might.
func (r *Report) writeRankings(b *strings.Builder) {
	if len(r.Rankings) == 0 {
		return
	}
	b.WriteString("\nRanking (only where the 95% intervals do not overlap):\n")
	writeComparisons(b, r.Rankings)
}

// writeComparisons writes one line per comparison.
func writeComparisons(b *strings.Builder, cs []Comparison) {
	for _, c := range cs {
		switch {
		case c.Separated:
			hi, lo := c.A, c.B
			if c.Better == "b" {
				hi, lo = lo, hi
			}
			fmt.Fprintf(b, "- %s: %s ranks above %s\n", c.Figure, hi, lo)
		case c.Undefined != "":
			fmt.Fprintf(b, "- %s: %s and %s not ranked — %s\n", c.Figure, c.A, c.B, c.Undefined)
		case c.MoreCases != nil:
			fmt.Fprintf(b, "- %s: %s and %s not ranked — their intervals overlap; about %d more case(s) of the same mix would separate them\n", c.Figure, c.A, c.B, *c.MoreCases)
		default:
			fmt.Fprintf(b, "- %s: %s and %s not ranked — their intervals overlap and their estimates are equal, so no number of cases of the same mix would separate them\n", c.Figure, c.A, c.B)
		}
	}
}

// writeHoldout writes --holdout's pick on the tuning part beside its
// figures on the held-out part.
func (r *Report) writeHoldout(b *strings.Builder) {
	h := r.Holdout
	if h == nil {
		return
	}
	fmt.Fprintf(b, "\nHeld-out check (--holdout %s): the threshold is picked on %d scored case(s) and measured on %d held-out scored case(s) never used for the pick (split by a hash of each case's id).\n\n",
		fmtFraction(h.Fraction), h.TuneCases, h.HeldOutCases)
	if h.InSample != nil {
		b.WriteString("| | t | agreement | κ | catch | false interventions |\n|---|---|---|---|---|---|\n")
		row := func(name string, p *judgestats.SweepPoint) {
			fmt.Fprintf(b, "| %s | %.2f | %s | %s | %s | %s |\n", name, p.Threshold, pctCI(p.Agreement, p.AgreementCI), numCI(p.Kappa, p.KappaCI),
				pctCI(p.CatchRate, p.CatchRateCI), pctCI(p.FalseInterventionRate, p.FalseInterventionRateCI))
		}
		row("pick, in-sample (tuning part)", h.InSample)
		row("pick, held out", h.HeldOut)
		row("configured, held out", h.Configured)
		b.WriteString("\n")
	}
	if h.TooSmall != "" {
		fmt.Fprintf(b, "**The held-out part is too small to support the pick:** %s. Keep the configured threshold, or add cases.\n", h.TooSmall)
		return
	}
	v := h.Versus
	switch {
	case undefined("κ", "", "", h.HeldOut.Kappa, h.Configured.Kappa, h.HeldOut.KappaCI, h.Configured.KappaCI) != "":
		fmt.Fprintf(b, "On the held-out cases κ or its interval is n/a at one of the two thresholds, so the pick %.2f and the configured %.2f are not ranked by κ.\n",
			h.HeldOut.Threshold, h.Configured.Threshold)
	case v.Separated && v.Better == "a":
		fmt.Fprintf(b, "On the held-out cases the pick %.2f ranks above the configured %.2f by κ.\n", h.HeldOut.Threshold, h.Configured.Threshold)
	case v.Separated:
		fmt.Fprintf(b, "On the held-out cases the configured %.2f ranks above the pick %.2f by κ: the pick does not carry over.\n", h.Configured.Threshold, h.HeldOut.Threshold)
	case v.MoreCases != nil:
		fmt.Fprintf(b, "On the held-out cases the pick %.2f and the configured %.2f are not ranked: their κ intervals overlap; about %d more held-out case(s) of the same mix would separate them.\n",
			h.HeldOut.Threshold, h.Configured.Threshold, *v.MoreCases)
	default:
		fmt.Fprintf(b, "On the held-out cases the pick %.2f and the configured %.2f have the same κ: nothing to choose between them.\n", h.HeldOut.Threshold, h.Configured.Threshold)
	}
}

// complementCI is the interval of 1 − p given p's.
func complementCI(iv *judgestats.Interval) *judgestats.Interval {
	if iv == nil {
		return nil
	}
	return &judgestats.Interval{Low: 1 - iv.High, High: 1 - iv.Low}
}

// pctCI is a rate and its interval: "66.7% [20.8, 93.9]".
func pctCI(p *float64, iv *judgestats.Interval) string {
	if p == nil || iv == nil {
		return pct(p)
	}
	return fmt.Sprintf("%s [%.1f, %.1f]", pct(p), iv.Low*100, iv.High*100)
}

// numCI is κ and its interval: "0.40 [-0.25, 1.00]"; "0.40 [n/a]" when
// too few resamples give a κ for an interval (a handful of cases).
func numCI(p *float64, iv *judgestats.Interval) string {
	if p == nil {
		return num(p)
	}
	if iv == nil {
		return num(p) + " [n/a]"
	}
	return fmt.Sprintf("%s [%s, %s]", num(p), fixed2(iv.Low), fixed2(iv.High))
}
