package verdict

import (
	"encoding/json"
	"testing"
)

// FuzzNormalise checks that no model output panics the normalisers, that a
// judge verdict always survives the file round trip, and that the failure
// defaults hold their invariants.
func FuzzNormalise(f *testing.F) {
	f.Add("```json\n{\"score\":0.8,\"passed\":null,\"criterion_scores\":{\"a\":\"x\"}}\n```")
	f.Add(`{"verdict_quality":"sound","bias_detected":true,"override_recommendation":"reject","bias_types":["length"]}`)
	f.Add("prose {\"score\":1}")
	f.Fuzz(func(t *testing.T, text string) {
		v, _ := NormaliseJudge(text, 0.75)
		if v.Failed && (v.Passed || v.Score != nil || v.HasCriterionScores) {
			t.Fatalf("failed verdict carries a vote or scores: %+v", v)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %+v: %v", v, err)
		}
		back, err := FromJSON(b)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", b, err)
		}
		b2, err := json.Marshal(back)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("round trip changed %s into %s (%v)", b, b2, err)
		}

		m, _ := NormaliseMeta(text)
		if m.Failed && (m.VerdictQuality != QualityQuestionable || m.BiasDetected || m.Override != "") {
			t.Fatalf("meta failure default broken: %+v", m)
		}
		switch m.Override {
		case "", OverrideAccept, OverrideReject, OverrideReEvaluate:
		default:
			t.Fatalf("override %q escaped normalisation", m.Override)
		}
	})
}
