package decide

import (
	"encoding/json"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// TestDecideTyped drives the typed function directly, as replay does: the
// JSON form (TestGolden) is only its adapter.
func TestDecideTyped(t *testing.T) {
	v := func(raw string) verdict.Verdict {
		t.Helper()
		vd, err := verdict.FromJSON(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		return vd
	}
	f := func(x float64) *float64 { return &x }
	r, err := rubric.Parse(json.RawMessage(rf))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		in       func() Input
		agg, dis float64
		passed   bool
		reason   rules.Reason
		fc       string
	}{
		{"defaults and nothing to judge block on the score", Defaults, 0, 0, false, rules.ReasonLowScore, ""},
		{"computed aggregate and dissent", func() Input {
			in := Defaults()
			in.Verdicts = []verdict.Verdict{v(`{"score":0.875,"passed":true}`), v(`{"score":0.75,"passed":true}`)}
			return in
		}, 0.8125, 0.125, true, "", ""},
		{"a floor under the typed rubric", func() Input {
			in := Defaults()
			in.Method, in.Rubric = rules.Mean, &r
			in.Verdicts = []verdict.Verdict{
				v(`{"score":0.85,"passed":true,"criterion_scores":{"correctness":0.9,"safety":0.3}}`),
				v(`{"score":0.8,"passed":true,"criterion_scores":{"correctness":0.9,"safety":0.3}}`)}
			return in
		}, 0.825, 0.05, false, rules.ReasonCriterionFloor, "safety"},
		{"given aggregate and dissent are used as recorded (case 9)", func() Input {
			in := Defaults()
			in.ScoreThreshold = 0.5
			in.Aggregate, in.Dissent = f(0.555), f(0.68-0.43)
			in.Verdicts = []verdict.Verdict{v(`{"score":0.68,"passed":true}`), v(`{"score":0.43,"passed":true}`)}
			return in
		}, 0.555, 0.68 - 0.43, true, "", ""},
	} {
		out := Decide(tc.in())
		if out.Aggregate != tc.agg || out.Dissent != tc.dis || out.Gate.Passed != tc.passed ||
			out.Gate.Reason != tc.reason || out.Gate.FailedCriterion != tc.fc {
			t.Errorf("%s: got %v %v %+v", tc.name, out.Aggregate, out.Dissent, out.Gate)
		}
	}
	d := Defaults()
	if d.Policy != rules.DefaultPolicy || d.Method != rules.DefaultMethod || d.ScoreThreshold != rules.DefaultScoreThreshold ||
		d.DissentThreshold != rules.DefaultDissentThreshold || d.MinCriterionCoverage != rules.DefaultMinCriterionCoverage {
		t.Errorf("Defaults() = %+v, not the rules' defaults", d)
	}
}
