// Package aggregate combines a jury's usable scores into one aggregate and
// a dissent score (spec §5).
package aggregate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Score aggregates the usable verdicts' scores with method (spec §5); any
// method other than rules.Methods falls back to rules.Mean with a warning. An empty
// panel, or one with no usable verdict, scores 0, which is below every
// threshold so the gate blocks. Unusable verdicts, failed judges included,
// are dropped with one warning naming them; their criterion scores are not
// used for weighting. minCoverage is the weighted_mean coverage guard. The
// result is rounded (rules.Round).
func Score(method rules.Method, vs []verdict.Verdict, r *rubric.Rubric, minCoverage float64) (float64, []string) {
	s, warnings := score(method, vs, r, minCoverage)
	return rules.Round(s), warnings
}

func score(method rules.Method, vs []verdict.Verdict, r *rubric.Rubric, minCoverage float64) (float64, []string) {
	if len(vs) == 0 {
		return 0, nil
	}
	usable, scores, warnings := filter(vs)
	if len(usable) == 0 {
		return 0, warnings
	}
	switch method {
	case rules.Mean:
		return mean(scores), warnings
	case rules.Median:
		return median(scores), warnings
	case rules.Min:
		return slices.Min(scores), warnings
	case rules.WeightedMean:
		return weightedMean(usable, scores, r, minCoverage), warnings
	default:
		warnings = append(warnings, fmt.Sprintf("tribunal-aggregate: unknown method %s, falling back to mean", method))
		return mean(scores), warnings
	}
}

// Disagreement is the dissent score: max − min over usable scores, or 0 with
// fewer than two of them (spec §5.4), rounded (rules.Round).
func Disagreement(vs []verdict.Verdict) (float64, []string) {
	if len(vs) == 0 {
		return 0, nil
	}
	_, scores, warnings := filter(vs)
	if len(scores) < 2 {
		return 0, warnings
	}
	return rules.Round(slices.Max(scores) - slices.Min(scores)), warnings
}

// filter keeps the usable verdicts in panel order (spec §5.1) and describes the
// dropped ones in a single warning.
func filter(vs []verdict.Verdict) ([]verdict.Verdict, []float64, []string) {
	var (
		usable  []verdict.Verdict
		scores  []float64
		dropped []string
	)
	for _, v := range vs {
		s, ok := v.UsableScore()
		if !ok {
			dropped = append(dropped, v.Label())
			continue
		}
		usable = append(usable, v)
		scores = append(scores, s)
	}
	if len(dropped) == 0 {
		return usable, scores, nil
	}
	return usable, scores, []string{
		"tribunal-aggregate: ignoring verdict(s) with no usable score (missing, non-numeric, or outside [0,1]): " +
			strings.Join(dropped, ", "),
	}
}

// mean sums in panel order, as tribunal 1.2.7 did, so results match it to
// the last bit.
func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// weightedMean implements spec §5.3. It falls back to the plain mean whenever the
// rubric weighting would rest on too little evidence, including a floored
// criterion that no usable judge scored; degrading is silent.
func weightedMean(usable []verdict.Verdict, scores []float64, r *rubric.Rubric, minCoverage float64) float64 {
	var criteria []rubric.Criterion
	if r != nil {
		criteria = r.Criteria
	}
	var (
		totalW, den, num float64
		haveWeight       bool
		covered          int
	)
	for _, c := range criteria {
		if c.Weight != nil {
			totalW += *c.Weight
			haveWeight = true
		}
		if c.Name == "" {
			continue
		}
		sc := criterionScores(usable, c.Name)
		if len(sc) == 0 {
			if c.MinPass != nil {
				// A floor nobody scored forces the degrade (spec §5.3 step 3).
				return mean(scores)
			}
			continue
		}
		if c.Weight == nil {
			continue
		}
		covered++
		den += *c.Weight
		num += *c.Weight * mean(sc)
	}
	// Non-finite sums can only come from absurd weights in an unvalidated
	// rubric; degrading keeps the result a number.
	if covered == 0 || !haveWeight || !finite(totalW) || !finite(den) || den <= 0 || totalW <= 0 ||
		den/totalW < minCoverage {
		return mean(scores)
	}
	if res := num / den; finite(res) {
		return res
	}
	return mean(scores)
}

// criterionScores collects S(c): the readable values the verdicts report
// for name.
func criterionScores(vs []verdict.Verdict, name string) []float64 {
	var out []float64
	for _, v := range vs {
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		raw, present := cs[name]
		if !present {
			continue
		}
		if s, ok := verdict.Usable(raw); ok {
			out = append(out, s)
		}
	}
	return out
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
