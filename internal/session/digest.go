package session

import (
	"encoding/json"
	"math"

	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// digest builds the retry digest (spec §7.7) from the previous iteration; "" on
// the first pass.
func (r *runner) digest() string {
	if len(r.history) == 0 {
		return ""
	}
	prev := r.history[len(r.history)-1]
	in := prompts.DigestInput{
		Reason:          prev.gate.Reason,
		FailedCriterion: prev.gate.FailedCriterion,
		Aggregate:       prev.aggregate,
		Threshold:       &r.params.ScoreThreshold,
		Meta: prompts.DigestMeta{
			Quality: prev.meta.VerdictQuality, Bias: prev.meta.BiasDetected,
			BiasTypes: prev.meta.BiasTypes, Override: prev.meta.Override,
		},
	}
	if prev.gate.FailedCriterion != "" {
		in.FailedLowest, in.FailedFloor = r.floorFacts(prev.verdicts, prev.gate.FailedCriterion)
	}
	if prev.recorded {
		in.Dissent = &prev.dissent
	}
	for _, c := range r.criteria() {
		dc := prompts.DigestCriterion{Name: c.Name, Weight: c.Weight, MinPass: c.MinPass}
		var sum float64
		var n int
		min := math.Inf(1)
		for _, v := range prev.verdicts {
			if _, ok := v.UsableScore(); !ok {
				continue
			}
			if s, ok := v.ReadableCriterionScores()[c.Name]; ok {
				sum += s
				n++
				min = math.Min(min, s)
			}
		}
		if n > 0 {
			mean := sum / float64(n)
			dc.Mean, dc.Min = &mean, &min
		}
		in.Criteria = append(in.Criteria, dc)
	}
	for _, v := range prev.verdicts {
		dj := prompts.DigestJudge{Type: v.JudgeType, Passed: v.Passed, Failed: v.Failed, Feedback: v.FeedbackSummary}
		if s, ok := v.UsableScore(); ok {
			dj.Score = &s
		}
		if v.Failed && dj.Feedback == "" {
			dj.Feedback = "(this judge failed: " + firstLine(v.Error, 200) + ")"
		}
		in.Judges = append(in.Judges, dj)
	}
	for _, c := range prev.commands {
		dj := prompts.DigestJudge{Type: "command:" + c.Name, Passed: c.Passed, Failed: c.Failed, Feedback: c.Feedback}
		if c.Failed && dj.Feedback == "" {
			dj.Feedback = "(could not run: " + firstLine(c.Error, 200) + ")"
		}
		in.Judges = append(in.Judges, dj)
	}
	return prompts.Digest(in)
}

// floorFacts returns the lowest readable report of criterion name across
// all verdicts (the floor uses the minimum, spec §6.2) and its min_pass, for
// reports such as "safety (0.30 < 0.80)". A criterion violated only by an
// unreadable report has no lowest score.
func (r *runner) floorFacts(vs []verdict.Verdict, name string) (lowest, floor *float64) {
	if r.rub != nil {
		for _, c := range r.rub.Criteria {
			if c.Name == name && c.MinPass != nil {
				f := *c.MinPass
				floor = &f
				break
			}
		}
	}
	min := math.Inf(1)
	for _, v := range vs {
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		raw, ok := cs[name]
		if !ok {
			continue
		}
		if s, ok := verdict.Usable(json.RawMessage(raw)); ok && s < min {
			min = s
		}
	}
	if !math.IsInf(min, 1) {
		lowest = &min
	}
	return lowest, floor
}
