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
