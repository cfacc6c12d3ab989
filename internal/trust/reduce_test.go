package trust

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func TestReduce(t *testing.T) {
	type want struct {
		failed     bool
		errHas     string
		score      string // raw JSON; "" = absent
		passed     bool
		criteria   map[string]string
		hasCrit    bool
		feedback   string
		judgeType  string
		model      string
		confidence *float64
		strengths  *int
	}
	f := func(x float64) *float64 { return &x }
	n := func(x int) *int { return &x }
	cases := []struct {
		name string
		reps []string
		want want
	}{
		{name: "no reps", want: want{failed: true, errHas: "no judge reps ran"}},
		{name: "all failed", reps: []string{
			`{"judge_type":"standard","failed":true,"error":"timeout"}`,
			`{"judge_type":"standard","failed":true,"error":"not JSON"}`},
			want: want{failed: true, errHas: "every rep failed: rep 1: timeout; rep 2: not JSON", judgeType: "standard"}},
		{name: "survivor mean and majority", reps: []string{
			`{"judge_type":"standard","judge_model_id":"m","score":0.9,"passed":true,"confidence":0.8,"strengths_count":2}`,
			`{"judge_type":"standard","judge_model_id":"m","score":0.6,"passed":false,"confidence":0.6,"strengths_count":3}`,
			`{"judge_type":"standard","judge_model_id":"m","score":0.9,"passed":true}`},
			want: want{score: "0.8", passed: true, judgeType: "standard", model: "m",
				confidence: f(0.7), strengths: n(3)}},
		{name: "a tie does not pass", reps: []string{
			`{"score":0.9,"passed":true}`, `{"score":0.8,"passed":false}`},
			want: want{score: "0.8500000000000001", passed: false}},
		{name: "failed rep is dropped, not a zero", reps: []string{
			`{"score":0.8,"passed":true}`, `{"failed":true,"error":"x"}`},
			want: want{score: "0.8", passed: true}},
		{name: "unusable rep keeps a seat in the vote", reps: []string{
			`{"score":0.9,"passed":true}`, `{"score":"high","passed":true}`, `{"score":0.7,"passed":true}`},
			want: want{score: "0.8", passed: true}},
		{name: "no survivor keeps the raw unusable score", reps: []string{
			`{"score":95,"passed":true}`, `{"failed":true,"error":"x"}`, `{"score":"n/a"}`},
			want: want{score: "95", passed: false}},
		{name: "criteria: mean of readable values over live reps", reps: []string{
			`{"score":0.8,"criterion_scores":{"safety":0.4,"clarity":1}}`,
			`{"score":0.8,"criterion_scores":{"safety":0.6}}`,
			`{"score":200,"criterion_scores":{"safety":0.2,"clarity":"n/a"}}`},
			want: want{score: "0.8", hasCrit: true, criteria: map[string]string{"safety": "0.4", "clarity": "1"}}},
		{name: "criteria: only unreadable values stay raw", reps: []string{
			`{"score":0.8,"criterion_scores":{"safety":"n/a"}}`,
			`{"score":0.8,"criterion_scores":{"safety":null}}`},
			want: want{score: "0.8", hasCrit: true, criteria: map[string]string{"safety": `"n/a"`}}},
		{name: "criteria: empty object is kept as reported", reps: []string{
			`{"score":0.8,"criterion_scores":{}}`, `{"score":0.6}`},
			want: want{score: "0.7", hasCrit: true, criteria: map[string]string{}}},
		{name: "feedback: distinct, in rep order", reps: []string{
			`{"score":0.8,"feedback_summary":"fix a.go:3"}`,
			`{"score":0.8,"feedback_summary":"  fix a.go:3 "}`,
			`{"score":0.8,"feedback_summary":"add a test"}`,
			`{"failed":true,"error":"x"}`},
			want: want{score: "0.8", feedback: "fix a.go:3\nadd a test"}},
		{name: "mixed models are left for the caller", reps: []string{
			`{"judge_type":"security","judge_model_id":"a","score":0.5}`,
			`{"judge_type":"security","judge_model_id":"b","score":0.5}`},
			want: want{score: "0.5", judgeType: "security"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reps []verdict.Verdict
			for _, s := range c.reps {
				reps = append(reps, mustVerdict(t, s))
			}
			got := Reduce(reps)
			w := c.want
			if got.Failed != w.failed || !strings.Contains(got.Error, w.errHas) {
				t.Errorf("Failed = %v (%q), want %v containing %q", got.Failed, got.Error, w.failed, w.errHas)
			}
			if string(got.Score) != w.score || got.Passed != w.passed {
				t.Errorf("score, passed = %s, %v; want %s, %v", got.Score, got.Passed, w.score, w.passed)
			}
			if got.HasCriterionScores != w.hasCrit || len(got.CriterionScores) != len(w.criteria) {
				t.Errorf("criterion scores = %v (has %v), want %v", rawMap(got.CriterionScores), got.HasCriterionScores, w.criteria)
			}
			for k, v := range w.criteria {
				if string(got.CriterionScores[k]) != v {
					t.Errorf("criterion %s = %s, want %s", k, got.CriterionScores[k], v)
				}
			}
			if got.FeedbackSummary != w.feedback {
				t.Errorf("feedback = %q, want %q", got.FeedbackSummary, w.feedback)
			}
			if got.JudgeType != w.judgeType || got.JudgeModelID != w.model {
				t.Errorf("type, model = %q, %q; want %q, %q", got.JudgeType, got.JudgeModelID, w.judgeType, w.model)
			}
			if !reflect.DeepEqual(got.Confidence, w.confidence) || !reflect.DeepEqual(got.StrengthsCount, w.strengths) {
				t.Errorf("confidence, strengths = %v, %v; want %v, %v", deref(got.Confidence), deref(got.StrengthsCount), deref(w.confidence), deref(w.strengths))
			}
			// Whatever the reps, the reduced verdict must survive its own
			// file round trip, as the loop writes it to verdicts/.
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if _, err := verdict.FromJSON(b); err != nil {
				t.Errorf("reduced verdict does not read back: %v (%s)", err, b)
			}
		})
	}
}

func TestReduceSingleRepIsIdentity(t *testing.T) {
	for _, s := range []string{
		`{"judge_id":"standard","score":0.80,"passed":true,"criterion_scores":{"safety":"n/a"},"feedback_summary":"ok"}`,
		`{"failed":true,"error":"boom"}`,
		`{"score":95}`,
	} {
		v := mustVerdict(t, s)
		if got := Reduce([]verdict.Verdict{v}); !reflect.DeepEqual(got, v) {
			t.Errorf("Reduce of one rep changed it:\n got %+v\nwant %+v", got, v)
		}
	}
}

func TestReduceFeedbackBounded(t *testing.T) {
	var reps []verdict.Verdict
	for i := range 5 {
		reps = append(reps, verdict.Verdict{Score: json.RawMessage("0.5"),
			FeedbackSummary: strings.Repeat(string(rune('a'+i)), 300) + strings.Repeat("é", 200)})
	}
	got := Reduce(reps).FeedbackSummary
	if len(got) > MaxFeedbackBytes || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "aaa") {
		t.Errorf("feedback is %d bytes, want <= %d, marked, rep order kept", len(got), MaxFeedbackBytes)
	}
	if !strings.Contains(got, "\n"+strings.Repeat("b", 300)) {
		t.Error("second rep's feedback missing")
	}
}

// The reduced score stays usable for usable reps: a mean of values in
// [0,1] never rounds outside it.
func TestReduceScoreStaysInRange(t *testing.T) {
	vals := []string{"1", "1", "1", "0.9999999999999999", "1e-300", "0"}
	var reps []verdict.Verdict
	for _, s := range vals {
		reps = append(reps, verdict.Verdict{Score: json.RawMessage(s)})
		got := Reduce(reps)
		if _, ok := got.UsableScore(); !ok {
			t.Fatalf("reduced score %s of %d reps is not usable", got.Score, len(reps))
		}
	}
}

// Floors compare exactly, so reps that all sit on a floor must reduce to a
// value on it, never an ulp below.
func TestReduceMeanOfEqualValuesIsExact(t *testing.T) {
	for _, x := range []string{"0.7", "0.1", "0.3", "0.9", "0.29"} {
		for n := 2; n <= 7; n++ {
			var reps []verdict.Verdict
			for range n {
				reps = append(reps, mustVerdict(t, `{"score":`+x+`,"criterion_scores":{"safety":`+x+`}}`))
			}
			got := Reduce(reps)
			if string(got.Score) != x || string(got.CriterionScores["safety"]) != x {
				t.Errorf("%d reps of %s reduce to score %s, safety %s", n, x, got.Score, got.CriterionScores["safety"])
			}
		}
	}
}

func rawMap(m map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
