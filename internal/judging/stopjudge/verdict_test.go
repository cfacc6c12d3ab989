package stopjudge

import (
	"encoding/json"
	"testing"
)

// TestValidatePassed: a boolean passed is kept as given; an absent or null
// one is the gate's score comparison, with its tolerance, so the hook and
// the loop cannot call the same score differently.
func TestValidatePassed(t *testing.T) {
	for _, tc := range []struct {
		answer string
		passed bool
	}{
		{`{"score":0.75,"judge_type":"standard"}`, true},
		{`{"score":0.7499999999999999,"judge_type":"standard"}`, true}, // within the tolerance
		{`{"score":0.7499,"judge_type":"standard"}`, false},
		{`{"score":0.9,"passed":null,"judge_type":"standard"}`, true},
		{`{"score":0.9,"passed":false,"judge_type":"standard"}`, false},
		{`{"score":0.1,"passed":true,"judge_type":"standard"}`, true},
	} {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.answer), &obj); err != nil {
			t.Fatal(err)
		}
		a, err := Validate(obj, 0.75)
		if err != nil || a.Passed != tc.passed {
			t.Errorf("Validate(%s) = passed %v, %v; want %v", tc.answer, a.Passed, err, tc.passed)
		}
	}
}
