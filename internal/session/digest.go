package session

import (
	"math"

	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
)

// digest builds the retry digest (spec §7.7) from the previous iteration; "" on
// the first pass.
func (r *runner) digest() string {
	if len(r.history) == 0 {
		return ""
	}
	prev := r.history[len(r.history)-1]
	in := prompts.DigestInput{
		Reason:          prev.Gate.Reason,
		FailedCriterion: prev.Gate.FailedCriterion,
		Aggregate:       prev.Aggregate,
		Threshold:       &r.params.ScoreThreshold,
		Meta: prompts.DigestMeta{
			Quality: prev.Meta.VerdictQuality, Bias: prev.Meta.BiasDetected,
			BiasTypes: prev.Meta.BiasTypes, Override: prev.Meta.Override,
		},
	}
	if prev.Gate.FailedCriterion != "" {
		in.FailedLowest, in.FailedFloor = r.jury.FloorFacts(prev.Verdicts, prev.Gate.FailedCriterion)
	}
	if prev.DissentRecorded {
		in.Dissent = &prev.Dissent
	}
	for _, c := range r.jury.Criteria() {
		dc := prompts.DigestCriterion{Name: c.Name, Weight: c.Weight, MinPass: c.MinPass}
		var sum float64
		var n int
		min := math.Inf(1)
		for _, v := range prev.Verdicts {
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
	for _, v := range prev.Verdicts {
		dj := prompts.DigestJudge{Type: v.JudgeType, Passed: v.Passed, Failed: v.Failed, Feedback: v.FeedbackSummary}
		if s, ok := v.UsableScore(); ok {
			dj.Score = &s
		}
		if v.Failed && dj.Feedback == "" {
			dj.Feedback = "(this judge failed: " + firstLine(v.Error, 200) + ")"
		}
		in.Judges = append(in.Judges, dj)
	}
	for _, c := range prev.Commands {
		dj := prompts.DigestJudge{Type: c.Label(), Passed: c.Passed, Failed: c.Failed, Feedback: c.Feedback}
		if c.Failed && dj.Feedback == "" {
			dj.Feedback = "(could not run: " + firstLine(c.Error, 200) + ")"
		}
		in.Judges = append(in.Judges, dj)
	}
	return prompts.Digest(in)
}
