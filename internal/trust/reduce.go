package trust

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// MaxFeedbackBytes bounds the reduced verdict's feedback: the reps'
// distinct summaries joined, which the next actor prompt carries.
const MaxFeedbackBytes = 2000

// Reduce folds one judge type's reps into the single verdict that takes the
// type's seat, so the gate, aggregation and dissent rules see one vote per
// type however many reps ran.
//
//   - One rep is returned unchanged: judge_reps = 1 behaves exactly as a
//     panel without reps.
//   - Every rep failed (or there were none) → a failed verdict whose error
//     lists each rep's: the seat is kept and cannot vote pass (spec §4.1).
//   - Otherwise the survivors, the reps with a usable score, decide: the
//     score is their mean and passed is a strict majority of their own
//     calls (a tie does not pass). Without survivors the first non-failed
//     rep's raw score is kept, so the seat stays unusable rather than being
//     repaired into a number.
//   - Criterion scores are the mean of the readable values each criterion
//     got from the non-failed reps, because the gate's floors look at every
//     verdict's criterion scores, usable or not (spec §6.2). A criterion that
//     only unreadable values reported keeps the first of them raw, so its
//     floor still trips as it would without reps.
//   - Feedback is the reps' distinct summaries in rep order, bounded.
//
// Identity fields (ids, type, model) are kept when every rep has the same
// value and left empty otherwise, for the caller to set.
func Reduce(reps []verdict.Verdict) verdict.Verdict {
	switch len(reps) {
	case 0:
		return verdict.Failed("no judge reps ran")
	case 1:
		return reps[0]
	}
	var live []verdict.Verdict
	var errs []string
	for i, v := range reps {
		if v.Failed {
			errs = append(errs, fmt.Sprintf("rep %d: %s", i+1, v.Error))
			continue
		}
		live = append(live, v)
	}
	var out verdict.Verdict
	if len(live) == 0 {
		out = verdict.Failed("every rep failed: " + strings.Join(errs, "; "))
	} else {
		out = reduceLive(live)
	}
	out.JudgeID = common(reps, func(v verdict.Verdict) string { return v.JudgeID })
	out.JudgeType = common(reps, func(v verdict.Verdict) string { return v.JudgeType })
	out.JudgeModelID = common(reps, func(v verdict.Verdict) string { return v.JudgeModelID })
	out.TaskID = common(reps, func(v verdict.Verdict) string { return v.TaskID })
	out.IterationID = common(reps, func(v verdict.Verdict) string { return v.IterationID })
	return out
}

// reduceLive reduces the non-failed reps (at least one).
func reduceLive(live []verdict.Verdict) verdict.Verdict {
	var (
		out       verdict.Verdict
		scores    []float64
		approvals int
	)
	for _, v := range live {
		if s, ok := v.UsableScore(); ok {
			scores = append(scores, s)
			if v.Passed {
				approvals++
			}
		}
	}
	if len(scores) > 0 {
		out.Score = number(mean(scores))
		out.Passed = 2*approvals > len(scores)
	} else {
		out.Score = live[0].Score
	}
	out.CriterionScores, out.HasCriterionScores = criterionMeans(live)

	var (
		strengths, weaknesses, confidence []float64
		evaluated                         []string
		seenEval                          = map[string]bool{}
		feedback                          []string
		seenFeedback                      = map[string]bool{}
	)
	for _, v := range live {
		if v.StrengthsCount != nil {
			strengths = append(strengths, float64(*v.StrengthsCount))
		}
		if v.WeaknessesCount != nil {
			weaknesses = append(weaknesses, float64(*v.WeaknessesCount))
		}
		if v.Confidence != nil {
			confidence = append(confidence, *v.Confidence)
		}
		for _, c := range v.CriteriaEvaluated {
			if !seenEval[c] {
				seenEval[c] = true
				evaluated = append(evaluated, c)
			}
		}
		if f := strings.TrimSpace(v.FeedbackSummary); f != "" && !seenFeedback[f] {
			seenFeedback[f] = true
			feedback = append(feedback, f)
		}
		if out.FilePath == "" {
			out.FilePath = v.FilePath
		}
	}
	out.StrengthsCount = roundedMean(strengths)
	out.WeaknessesCount = roundedMean(weaknesses)
	if len(confidence) > 0 {
		c := mean(confidence)
		out.Confidence = &c
	}
	out.CriteriaEvaluated = evaluated
	out.FeedbackSummary = safetext.Clip(strings.Join(feedback, "\n"), MaxFeedbackBytes)
	return out
}

// criterionMeans reduces criterion scores as Reduce documents.
func criterionMeans(live []verdict.Verdict) (map[string]json.RawMessage, bool) {
	readable := map[string][]float64{}
	firstRaw := map[string]json.RawMessage{}
	has := false
	for _, v := range live {
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		has = true
		for name, raw := range cs {
			if s, ok := verdict.Usable(raw); ok {
				readable[name] = append(readable[name], s)
			} else if _, seen := firstRaw[name]; !seen {
				firstRaw[name] = raw
			}
		}
	}
	if !has {
		return nil, false
	}
	out := make(map[string]json.RawMessage, len(readable)+len(firstRaw))
	for name, raw := range firstRaw {
		out[name] = raw
	}
	names := make([]string, 0, len(readable))
	for name := range readable {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out[name] = number(mean(readable[name]))
	}
	return out, true
}

// common returns the value every rep shares, or "".
func common(reps []verdict.Verdict, field func(verdict.Verdict) string) string {
	first := field(reps[0])
	for _, v := range reps[1:] {
		if field(v) != first {
			return ""
		}
	}
	return first
}

// mean is the exact mean of xs rounded once to the nearest float64. A
// running float sum would not do: 0.7+0.7+0.7 over 3 is 0.6999999999999998,
// and three reps that all gave a criterion exactly its 0.7 floor would then
// fail it (floors compare exactly). Exact arithmetic keeps the mean between
// the smallest and largest value, and equal to them when they are equal.
// Non-finite values, which no caller passes, are skipped.
func mean(xs []float64) float64 {
	var sum, r big.Rat
	n := int64(0)
	for _, x := range xs {
		if finite(x) { // SetFloat64 cannot represent NaN or ±Inf
			sum.Add(&sum, r.SetFloat64(x))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	sum.Quo(&sum, r.SetInt64(n))
	f, _ := sum.Float64()
	return f
}

func roundedMean(xs []float64) *int {
	if len(xs) == 0 {
		return nil
	}
	n := int(math.Round(mean(xs)))
	return &n
}

// number encodes a score as the raw JSON number the verdict carries.
func number(f float64) json.RawMessage {
	return json.RawMessage(strconv.FormatFloat(f, 'f', -1, 64))
}
