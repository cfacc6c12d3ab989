package rubric

import (
	"encoding/json"
	"testing"
)

func fp(f float64) *float64 { return &f }

func TestParse(t *testing.T) {
	raw := json.RawMessage(`{
		"id": "r1",
		"ID": "ignored: keys are case-sensitive",
		"criteria": [
			{"name": "a", "weight": 0.5, "min_pass": 0.7},
			{"name": 5, "weight": "0.5", "min_pass": null},
			7,
			{"weight": 0}
		],
		"score_threshold": 0.8,
		"max_iterations": "3",
		"judge_types": null,
		"gate_policy": "strict"
	}`)
	r, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "r1" {
		t.Errorf("ID = %q, want r1", r.ID)
	}
	want := []Criterion{
		{Name: "a", Weight: fp(0.5), MinPass: fp(0.7)},
		{},
		{},
		{Weight: fp(0)},
	}
	if len(r.Criteria) != len(want) {
		t.Fatalf("criteria = %d entries, want %d", len(r.Criteria), len(want))
	}
	for i, c := range r.Criteria {
		if c.Name != want[i].Name || !sameFloat(c.Weight, want[i].Weight) || !sameFloat(c.MinPass, want[i].MinPass) {
			t.Errorf("criteria[%d] = %+v, want %+v", i, c, want[i])
		}
	}
	fields := []struct {
		name string
		got  json.RawMessage
		want string
	}{
		{"score_threshold", r.ScoreThreshold, "0.8"},
		{"max_iterations", r.MaxIterations, `"3"`},
		{"judge_types (null)", r.JudgeTypes, ""},
		{"gate_policy", r.GatePolicy, `"strict"`},
		{"aggregation_method (absent)", r.AggregationMethod, ""},
	}
	for _, f := range fields {
		if string(f.got) != f.want {
			t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
		}
		if f.want == "" && f.got != nil {
			t.Errorf("%s should be nil", f.name)
		}
	}
	if !json.Valid(r.Raw) || r.Raw[0] != '{' {
		t.Errorf("Raw = %q, want the object", r.Raw)
	}
}

func TestParseIDMustBeString(t *testing.T) {
	for _, in := range []string{`{"id": 5}`, `{"id": null}`, `{}`, `{"id": ["a"]}`} {
		r, err := Parse(json.RawMessage(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if r.ID != "" {
			t.Errorf("%s: ID = %q, want empty", in, r.ID)
		}
	}
}

func TestParseRejectsNonObjects(t *testing.T) {
	for _, in := range []string{`null`, `[]`, `"default"`, `5`, ``, `{`} {
		if _, err := Parse(json.RawMessage(in)); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		}
	}
}

func TestNumberValue(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.75", 0.75, true},
		{"-1", -1, true},
		{"1e0", 1, true},
		{` 2 `, 2, true},
		{`"3"`, 0, false},
		{"true", 0, false},
		{"null", 0, false},
		{"", 0, false},
		{"[1]", 0, false},
	}
	for _, tt := range tests {
		got, ok := numberValue(json.RawMessage(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("numberValue(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func sameFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
