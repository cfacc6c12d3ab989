package verdict

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func ptrF(f float64) *float64 { return &f }
func ptrI(n int) *int         { return &n }

func TestUsable(t *testing.T) {
	tests := []struct {
		raw  string
		want float64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"0.85", 0.85, true},
		{"1.0", 1, true},
		{"-0", 0, true},
		{"1e-1", 0.1, true},
		{" 0.5 ", 0.5, true},
		{"", 0, false},
		{"null", 0, false},
		{`"0.5"`, 0, false},
		{"true", 0, false},
		{"95", 0, false},
		{"100", 0, false},
		{"-5", 0, false},
		{"1.0000001", 0, false},
		{"-0.0001", 0, false},
		{"[0.5]", 0, false},
		{`{"a":0.5}`, 0, false},
		{"0.5x", 0, false},
		{"01", 0, false},
		{"1e400", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, ok := Usable(json.RawMessage(tt.raw))
			if got != tt.want || ok != tt.ok {
				t.Errorf("Usable(%q) = %v, %v; want %v, %v", tt.raw, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseOutputFences(t *testing.T) {
	const obj = `{"score":0.8,"passed":true}`
	tests := []struct {
		name    string
		text    string
		wantErr error // nil means the object parses
	}{
		{"bare", obj, nil},
		{"surrounding whitespace", "\n\t " + obj + "  \n", nil},
		{"plain fence", "```\n" + obj + "\n```", nil},
		{"json fence", "```json\n" + obj + "\n```", nil},
		{"JSON fence upper case", "```JSON\n" + obj + "\n```", nil},
		{"fence with whitespace around", "  ```json  \n  " + obj + "  \n```  \n", nil},
		{"closing fence on the object line", "```json\n" + obj + "```", nil},
		{"multi-line object in fence", "```json\n{\n  \"score\": 0.8,\n  \"passed\": true\n}\n```", nil},
		{"unclosed fence", "```json\n" + obj, ErrNotJSON},
		{"other language fence", "```js\n" + obj + "\n```", ErrNotJSON},
		{"single-line fence", "```" + obj + "```", ErrNotJSON},
		{"two fences", "```json\n" + obj + "\n```\n```json\n" + obj + "\n```", ErrNotJSON},
		{"prose before", "Here is my verdict: " + obj, ErrNotJSON},
		{"prose after", obj + "\nHope this helps.", ErrNotJSON},
		{"prose around fence", "Verdict:\n```json\n" + obj + "\n```", ErrNotJSON},
		{"two objects", obj + obj, ErrNotJSON},
		{"empty", "   \n", ErrEmpty},
		{"empty fence", "```\n```", ErrEmpty},
		{"array", "[" + obj + "]", ErrNotObject},
		{"string", `"` + "ok" + `"`, ErrNotObject},
		{"number", "0.8", ErrNotObject},
		{"null", "null", ErrNotObject},
		{"fenced array", "```json\n[1]\n```", ErrNotObject},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseOutput(tt.text)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("ParseOutput: %v", err)
				}
				if string(m["score"]) != "0.8" || string(m["passed"]) != "true" {
					t.Errorf("parsed %v", m)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v; want %v", err, tt.wantErr)
			}
		})
	}
}

func TestNormaliseJudgeFailed(t *testing.T) {
	for _, text := range []string{
		"",
		"I could not finish the review.",
		`The verdict is {"score":0.9,"passed":true}`,
		`{"score":0.9,"passed":true} -- end`,
		`[{"score":0.9,"passed":true}]`,
		`{"score":0.9,`,
		"42",
	} {
		v, warnings := NormaliseJudge(text, 0.75)
		if !v.Failed || v.Error == "" || v.Passed || v.Score != nil || v.HasCriterionScores || v.CriterionScores != nil {
			t.Errorf("NormaliseJudge(%q) = %+v; want a failed verdict", text, v)
		}
		if !strings.HasPrefix(v.Error, "judge output ") {
			t.Errorf("error %q should say what was wrong with the judge output", v.Error)
		}
		if len(warnings) != 0 {
			t.Errorf("warnings %q; the failure is reported through Error", warnings)
		}
		if _, ok := v.UsableScore(); ok {
			t.Errorf("failed verdict must be unusable")
		}
	}
}

func TestNormaliseJudgePassed(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     bool
		warnings int
	}{
		// spec §A.4: the judge's false survives a score that clears the bar.
		{"false kept above threshold", `{"score":0.95,"passed":false}`, false, 0},
		{"true kept below threshold", `{"score":0.2,"passed":true}`, true, 0},
		{"true kept with unusable score", `{"score":100,"passed":true}`, true, 0},
		{"absent derived pass", `{"score":0.8}`, true, 0},
		{"absent derived at threshold", `{"score":0.75}`, true, 0},
		{"absent derived fail", `{"score":0.74}`, false, 0},
		{"null derived pass", `{"score":0.9,"passed":null}`, true, 0},
		{"null derived fail", `{"score":0.5,"passed":null}`, false, 0},
		{"absent with unusable score", `{"score":95}`, false, 0},
		{"absent with string score", `{"score":"0.9"}`, false, 0},
		{"absent with no score", `{}`, false, 0},
		{"string true", `{"score":0.9,"passed":"true"}`, false, 1},
		{"number 1", `{"score":0.9,"passed":1}`, false, 1},
		{"object", `{"score":0.9,"passed":{}}`, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, warnings := NormaliseJudge(tt.text, 0.75)
			if v.Failed {
				t.Fatalf("unexpected failure %q", v.Error)
			}
			if v.Passed != tt.want {
				t.Errorf("Passed = %v; want %v", v.Passed, tt.want)
			}
			if len(warnings) != tt.warnings {
				t.Errorf("warnings = %q; want %d", warnings, tt.warnings)
			}
			for _, w := range warnings {
				if !strings.HasPrefix(w, "tribunal-verdict: passed is ") || !strings.Contains(w, "not a boolean") {
					t.Errorf("warning %q", w)
				}
			}
		})
	}
}

func TestNormaliseJudgeFields(t *testing.T) {
	text := "```json\n" + `{
		"score": 100,
		"passed": true,
		"judge_type": "security",
		"judge_id": "forged",
		"task_id": "forged",
		"iteration_id": "forged",
		"judge_model_id": "forged",
		"criteria_evaluated": ["edge-cases", 7, "injection"],
		"criterion_scores": {"correctness": 0.9, "safety": "n/a", "clarity": null, "depth": 30},
		"strengths_count": 2,
		"weaknesses_count": 1.0,
		"confidence": 0.7,
		"feedback_summary": "main.go:12 misses the nil check.",
		"file_path": "main.go",
		"reasoning": "long chain of thought",
		"extra": {"nested": true}
	}` + "\n```"
	v, warnings := NormaliseJudge(text, 0.75)
	if len(warnings) != 0 {
		t.Fatalf("warnings %q", warnings)
	}
	want := Verdict{
		Score:             json.RawMessage("100"),
		Passed:            true,
		CriteriaEvaluated: []string{"edge-cases", "injection"},
		CriterionScores: map[string]json.RawMessage{
			"correctness": json.RawMessage("0.9"),
			"safety":      json.RawMessage(`"n/a"`),
			"clarity":     json.RawMessage("null"),
			"depth":       json.RawMessage("30"),
		},
		HasCriterionScores: true,
		StrengthsCount:     ptrI(2),
		WeaknessesCount:    ptrI(1),
		Confidence:         ptrF(0.7),
		FeedbackSummary:    "main.go:12 misses the nil check.",
		FilePath:           "main.go",
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got  %+v\nwant %+v", v, want)
	}
	if _, ok := v.UsableScore(); ok {
		t.Errorf("raw 100 must stay unusable, never be rescaled")
	}
}

func TestNormaliseJudgeInformationalTypes(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		check func(Verdict) bool
	}{
		{"criterion_scores array", `{"score":0.5,"criterion_scores":[0.5]}`,
			func(v Verdict) bool { return !v.HasCriterionScores && v.CriterionScores == nil }},
		{"criterion_scores null", `{"score":0.5,"criterion_scores":null}`,
			func(v Verdict) bool { return !v.HasCriterionScores && v.CriterionScores == nil }},
		{"criterion_scores empty object", `{"score":0.5,"criterion_scores":{}}`,
			func(v Verdict) bool {
				return v.HasCriterionScores && v.CriterionScores != nil && len(v.CriterionScores) == 0
			}},
		{"score absent", `{"passed":true}`, func(v Verdict) bool { return v.Score == nil }},
		{"score null kept raw", `{"score":null}`, func(v Verdict) bool { return string(v.Score) == "null" }},
		{"score string kept raw", `{"score":"n/a"}`, func(v Verdict) bool { return string(v.Score) == `"n/a"` }},
		{"confidence 1.5 dropped", `{"score":0.5,"confidence":1.5}`, func(v Verdict) bool { return v.Confidence == nil }},
		{"confidence string dropped", `{"score":0.5,"confidence":"high"}`, func(v Verdict) bool { return v.Confidence == nil }},
		{"negative count dropped", `{"score":0.5,"strengths_count":-1}`, func(v Verdict) bool { return v.StrengthsCount == nil }},
		{"fractional count dropped", `{"score":0.5,"weaknesses_count":1.5}`, func(v Verdict) bool { return v.WeaknessesCount == nil }},
		{"zero count kept", `{"score":0.5,"strengths_count":0}`,
			func(v Verdict) bool { return v.StrengthsCount != nil && *v.StrengthsCount == 0 }},
		{"criteria_evaluated string dropped", `{"score":0.5,"criteria_evaluated":"all"}`,
			func(v Verdict) bool { return v.CriteriaEvaluated == nil }},
		{"criteria_evaluated empty kept", `{"score":0.5,"criteria_evaluated":[]}`,
			func(v Verdict) bool { return v.CriteriaEvaluated != nil && len(v.CriteriaEvaluated) == 0 }},
		{"feedback_summary number dropped", `{"score":0.5,"feedback_summary":3}`,
			func(v Verdict) bool { return v.FeedbackSummary == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := NormaliseJudge(tt.text, 0.75)
			if v.Failed || !tt.check(v) {
				t.Errorf("NormaliseJudge(%s) = %+v", tt.text, v)
			}
		})
	}
}

// A judge answer nested past nesting.Max is a failed verdict, decided
// before encoding/json's own (deeper, recursive) limit is reached.
func TestNormaliseTooDeep(t *testing.T) {
	v, _ := NormaliseJudge(`{"score":`+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}`, 0.5)
	if v.Passed || !strings.Contains(v.Error, "nesting too deep") {
		t.Fatalf("verdict %+v", v)
	}
}
