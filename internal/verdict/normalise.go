package verdict

import "fmt"

// NormaliseJudge converts a judge's raw final message into a verdict (spec §4.1
// steps 1–6). Output that is not exactly one JSON object, possibly inside
// one Markdown fence, yields a failed verdict rather than a zero score, so a
// crash cannot drag the aggregate down or trip floors. Keys outside the
// verdict table are dropped, and so are the orchestrator fields (judge_id,
// judge_type, …): the caller sets those after this returns, and a judge
// must not be able to pre-fill them.
//
// threshold is the score threshold used to derive passed when the judge
// left it absent or null. The returned warnings are for the caller to print.
func NormaliseJudge(text string, threshold float64) (Verdict, []string) {
	obj, err := ParseOutput(text)
	if err != nil {
		return Failed("judge " + err.Error()), nil
	}
	var warnings []string
	v := Verdict{Score: obj["score"]}
	switch raw, present := obj["passed"]; {
	case !present || isNull(raw):
		s, ok := Usable(v.Score)
		v.Passed = ok && s >= threshold
	case isBool(raw):
		v.Passed = isTrue(raw)
	default:
		warnings = append(warnings, fmt.Sprintf(
			"tribunal-verdict: passed is %s, not a boolean; counting the verdict as not passed", brief(raw)))
	}
	fillInformational(&v, obj)
	v.CriterionScores, v.HasCriterionScores = asObject(obj["criterion_scores"])
	return v, warnings
}

// Defaulted reports whether a judge's answer may leave out key because its
// readers default it: passed becomes "score ≥ threshold" (spec §4.1 step
// 5, §8.5 step 3), confidence 0.6 for the Stop hook and none for a loop
// judge (§8.5 step 6, §4.1), feedback_summary empty (§8.5 step 5). Every
// provider's schema check (provider.Conform) lets these be absent, so that
// an answer the claude path accepts is accepted from any provider.
func Defaulted(key string) bool {
	switch key {
	case "passed", "confidence", "feedback_summary":
		return true
	}
	return false
}
