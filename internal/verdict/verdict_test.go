package verdict

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestMarshalFileForm(t *testing.T) {
	tests := []struct {
		name string
		v    Verdict
		want string
	}{
		{
			"minimal",
			Verdict{Score: json.RawMessage("0.8")},
			`{"score":0.8,"passed":false}`,
		},
		{
			"raw unusable score and criterion values kept",
			Verdict{
				JudgeID: "j1", JudgeType: "standard", JudgeModelID: "m", TaskID: "t", IterationID: "i",
				Score: json.RawMessage("100"), Passed: true,
				CriterionScores:    map[string]json.RawMessage{"safety": json.RawMessage(`"n/a"`), "clarity": json.RawMessage("null")},
				HasCriterionScores: true,
			},
			`{"judge_id":"j1","judge_type":"standard","judge_model_id":"m","task_id":"t","iteration_id":"i",` +
				`"score":100,"passed":true,"criterion_scores":{"clarity":null,"safety":"n/a"}}`,
		},
		{
			"null score kept",
			Verdict{Score: json.RawMessage("null")},
			`{"score":null,"passed":false}`,
		},
		{
			"empty criterion_scores object kept",
			Verdict{Score: json.RawMessage("0.5"), HasCriterionScores: true},
			`{"score":0.5,"passed":false,"criterion_scores":{}}`,
		},
		{
			"informational fields",
			Verdict{
				Score: json.RawMessage("0.5"), CriteriaEvaluated: []string{}, StrengthsCount: ptrI(0),
				WeaknessesCount: ptrI(3), Confidence: ptrF(0), FeedbackSummary: "ok", FilePath: "a.go",
			},
			`{"score":0.5,"passed":false,"criteria_evaluated":[],"strengths_count":0,"weaknesses_count":3,` +
				`"confidence":0,"feedback_summary":"ok","file_path":"a.go"}`,
		},
		{
			"failed judge",
			func() Verdict {
				v := Failed("judge timed out after 5m0s")
				v.JudgeID, v.JudgeType = "j2", "adversarial"
				return v
			}(),
			`{"judge_id":"j2","judge_type":"adversarial","passed":false,"failed":true,"error":"judge timed out after 5m0s"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			back, err := FromJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			b2, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if string(b2) != string(b) {
				t.Errorf("round trip changed the file:\n%s\n%s", b, b2)
			}
		})
	}
}

func TestRoundTripNormalised(t *testing.T) {
	inputs := []string{
		`{"score":100,"passed":true,"criterion_scores":{"correctness":0.9,"safety":"n/a","x":null},"confidence":0.4,` +
			`"criteria_evaluated":["a"],"strengths_count":1,"weaknesses_count":2,"feedback_summary":"f","file_path":"p"}`,
		`{"score":0.8}`,
		`{"passed":false}`,
		`{"score":"high","passed":"yes","criterion_scores":{}}`,
		`not json`,
	}
	for _, in := range inputs {
		v, _ := NormaliseJudge(in, 0.75)
		v.JudgeID, v.JudgeType, v.TaskID, v.IterationID, v.JudgeModelID = "j", "standard", "t", "i", "m"
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back Verdict
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(compactVerdict(t, back), compactVerdict(t, v)) {
			t.Errorf("round trip of %s:\n got  %+v\n want %+v", in, back, v)
		}
	}
}

// compactVerdict normalises raw whitespace so DeepEqual compares meaning.
func compactVerdict(t *testing.T, v Verdict) Verdict {
	t.Helper()
	c := func(raw json.RawMessage) json.RawMessage {
		if raw == nil {
			return nil
		}
		out, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	v.Score = c(v.Score)
	if v.CriterionScores != nil {
		m := map[string]json.RawMessage{}
		for k, raw := range v.CriterionScores {
			m[k] = c(raw)
		}
		v.CriterionScores = m
	}
	return v
}

func TestFromJSON(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(Verdict) bool
	}{
		{"passed true", `{"score":0.9,"passed":true}`, func(v Verdict) bool { return v.Passed }},
		// spec §6.4 case 49: only JSON true votes.
		{"passed string true", `{"score":0.9,"passed":"true"}`, func(v Verdict) bool { return !v.Passed }},
		{"passed 1", `{"score":0.9,"passed":1}`, func(v Verdict) bool { return !v.Passed }},
		// Unlike NormaliseJudge, an already-normalised verdict is never derived.
		{"passed absent not derived", `{"score":0.9}`, func(v Verdict) bool { return !v.Passed }},
		{"ids", `{"judge_id":"j","judge_type":"security","judge_model_id":"m","task_id":"t","iteration_id":"i"}`,
			func(v Verdict) bool {
				return v.JudgeID == "j" && v.JudgeType == "security" && v.JudgeModelID == "m" && v.TaskID == "t" && v.IterationID == "i"
			}},
		{"non-string id ignored", `{"judge_id":7,"judge_type":"standard"}`,
			func(v Verdict) bool { return v.JudgeID == "" && v.Label() == "standard" }},
		{"failed drops score and floors", `{"score":0.9,"passed":true,"failed":true,"error":"boom","criterion_scores":{"c":0}}`,
			func(v Verdict) bool {
				_, usable := v.UsableScore()
				_, reports := v.Reports()
				return v.Failed && v.Error == "boom" && !v.Passed && v.Score == nil && !usable && !reports
			}},
		{"failed must be JSON true", `{"score":0.9,"failed":"true"}`, func(v Verdict) bool { return !v.Failed }},
		{"criterion_scores string", `{"criterion_scores":"x"}`, func(v Verdict) bool { return !v.HasCriterionScores }},
		{"empty object", `{}`, func(v Verdict) bool { return v.Score == nil && v.Label() == "unidentified" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := FromJSON(json.RawMessage(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(v) {
				t.Errorf("FromJSON(%s) = %+v", tt.in, v)
			}
		})
	}
}

func TestFromJSONNonObject(t *testing.T) {
	for _, in := range []string{`null`, `[]`, `"verdict"`, `0.9`, `true`, ``, `{`} {
		_, err := FromJSON(json.RawMessage(in))
		if err == nil {
			t.Errorf("FromJSON(%q) succeeded", in)
		}
		if json.Valid([]byte(in)) && !errors.Is(err, ErrVerdictNotObject) {
			t.Errorf("FromJSON(%q) error %v should wrap ErrVerdictNotObject", in, err)
		}
	}
}

func TestUnmarshalNullIsNoOp(t *testing.T) {
	v := Verdict{JudgeID: "kept"}
	if err := json.Unmarshal([]byte("null"), &v); err != nil || v.JudgeID != "kept" {
		t.Errorf("got %+v, %v", v, err)
	}
	if err := json.Unmarshal([]byte("[1]"), &v); err == nil {
		t.Errorf("array must not unmarshal into a verdict")
	}
}

func TestLabel(t *testing.T) {
	tests := []struct {
		v    Verdict
		want string
	}{
		{Verdict{JudgeID: "j1", JudgeType: "standard"}, "j1"},
		{Verdict{JudgeType: "standard"}, "standard"},
		{Verdict{}, "unidentified"},
	}
	for _, tt := range tests {
		if got := tt.v.Label(); got != tt.want {
			t.Errorf("Label(%+v) = %q; want %q", tt.v, got, tt.want)
		}
	}
}

func TestEventRendering(t *testing.T) {
	tests := []struct {
		in        string
		emittable bool
		readable  map[string]float64
	}{
		{`{"score":0.8,"criterion_scores":{"a":0.5,"b":"n/a","c":null,"d":30,"e":0}}`, true, map[string]float64{"a": 0.5, "e": 0}},
		{`{"score":100,"criterion_scores":{"a":0.5}}`, false, map[string]float64{"a": 0.5}},
		{`{"score":0.8,"criterion_scores":{"b":"n/a"}}`, true, nil},
		{`{"score":0.8}`, true, nil},
		{`{"passed":true}`, false, nil},
		{`{"score":0.8,"failed":true,"criterion_scores":{"a":0.5}}`, false, nil},
	}
	for _, tt := range tests {
		v, err := FromJSON(json.RawMessage(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Emittable(); got != tt.emittable {
			t.Errorf("Emittable(%s) = %v", tt.in, got)
		}
		if got := v.ReadableCriterionScores(); !reflect.DeepEqual(got, tt.readable) {
			t.Errorf("ReadableCriterionScores(%s) = %v; want %v", tt.in, got, tt.readable)
		}
	}
}
