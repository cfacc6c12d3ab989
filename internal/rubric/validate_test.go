package rubric

import (
	"encoding/json"
	"testing"
)

// defaultRubric is the built-in rubric of spec §2.8, as shipped (id and
// criteria only).
const defaultRubric = `{"id":"default","criteria":[
	{"name":"correctness","weight":0.4,"min_pass":0.7},
	{"name":"completeness","weight":0.3,"min_pass":0.7},
	{"name":"safety","weight":0.2,"min_pass":0.8},
	{"name":"clarity","weight":0.1,"min_pass":0.5}]}`

// one is a single valid criterion, so a case can vary the policy fields.
const one = `"criteria":[{"name":"all","weight":1,"min_pass":0.5}]`

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" means valid
	}{
		// spec §2.7 check 2.
		{"no id", `{` + one + `}`, "rubric missing .id"},
		{"null id", `{"id":null,` + one + `}`, "rubric missing .id"},
		{"empty id", `{"id":"",` + one + `}`, "rubric missing .id"},
		{"numeric id", `{"id":5,` + one + `}`, "rubric missing .id"},
		// Check 3.
		{"no criteria", `{"id":"r"}`, "rubric r: criteria must be non-empty"},
		{"null criteria", `{"id":"r","criteria":null}`, "rubric r: criteria must be non-empty"},
		{"empty criteria", `{"id":"r","criteria":[]}`, "rubric r: criteria must be non-empty"},
		{"object criteria", `{"id":"r","criteria":{"name":"a"}}`, "rubric r: criteria must be non-empty"},
		// Check 4.
		{"missing weight", `{"id":"r","criteria":[{"name":"a","min_pass":0.5}]}`, "rubric r: invalid criteria: a (weight is missing)"},
		{"missing min_pass", `{"id":"r","criteria":[{"name":"a","weight":1}]}`, "rubric r: invalid criteria: a (min_pass is missing)"},
		{"string weight", `{"id":"r","criteria":[{"name":"a","weight":"1","min_pass":0.5}]}`, `rubric r: invalid criteria: a (weight must be a number, got "1")`},
		{"weight above 1", `{"id":"r","criteria":[{"name":"a","weight":1.5,"min_pass":0.5}]}`, "rubric r: invalid criteria: a (weight 1.5 out of [0,1])"},
		{"negative min_pass", `{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":-0.1}]}`, "rubric r: invalid criteria: a (min_pass -0.1 out of [0,1])"},
		{"min_pass above 1", `{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":1.01}]}`, "rubric r: invalid criteria: a (min_pass 1.01 out of [0,1])"},
		{"unnamed", `{"id":"r","criteria":[{"weight":1,"min_pass":0.5}]}`, "rubric r: invalid criteria: (unnamed #1) (name must be a non-empty string)"},
		{"empty name", `{"id":"r","criteria":[{"name":"","weight":1,"min_pass":0.5}]}`, "rubric r: invalid criteria: (unnamed #1) (name must be a non-empty string)"},
		{"numeric name", `{"id":"r","criteria":[{"name":7,"weight":1,"min_pass":0.5}]}`, "rubric r: invalid criteria: (unnamed #1) (name must be a non-empty string)"},
		{"non-object criterion", `{"id":"r","criteria":[3]}`, "rubric r: invalid criteria: (unnamed #1) (name must be a non-empty string; weight is missing; min_pass is missing)"},
		{"several invalid, in order", `{"id":"r","criteria":[
			{"name":"a","weight":0.5},
			{"name":"ok","weight":0.5,"min_pass":0.5},
			{"weight":0.5,"min_pass":0.5},
			{"name":"c","weight":2,"min_pass":0.5}]}`, "rubric r: invalid criteria: a (min_pass is missing), (unnamed #3) (name must be a non-empty string), c (weight 2 out of [0,1])"},
		{"bounds are inclusive", `{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":0},{"name":"b","weight":0,"min_pass":1}]}`, ""},
		// Check 5: 0.99 < s < 1.01, strict.
		{"weights 0.4 + 0.4 (reference case)", `{"id":"r","criteria":[{"name":"a","weight":0.4,"min_pass":0.5},{"name":"b","weight":0.4,"min_pass":0.5}]}`,
			"rubric r: criterion weights sum to 0.8 (expected ~1.0)"},
		// 0.3 + 0.3 + 0.3 is 0.8999999999999999 in binary: the user reads 0.9.
		{"a sum with binary noise reads as a decimal", `{"id":"r","criteria":[{"name":"a","weight":0.3,"min_pass":0.5},{"name":"b","weight":0.3,"min_pass":0.5},{"name":"c","weight":0.3,"min_pass":0.5}]}`,
			"rubric r: criterion weights sum to 0.9 (expected ~1.0)"},
		{"sum exactly 0.99", `{"id":"r","criteria":[{"name":"a","weight":0.99,"min_pass":0.5}]}`,
			"rubric r: criterion weights sum to 0.99 (expected ~1.0)"},
		{"sum exactly 1.01", `{"id":"r","criteria":[{"name":"a","weight":0.51,"min_pass":0.5},{"name":"b","weight":0.5,"min_pass":0.5}]}`,
			"rubric r: criterion weights sum to 1.01 (expected ~1.0)"},
		{"sum 0.995", `{"id":"r","criteria":[{"name":"a","weight":0.995,"min_pass":0.5}]}`, ""},
		{"sum 1.005", `{"id":"r","criteria":[{"name":"a","weight":0.505,"min_pass":0.5},{"name":"b","weight":0.5,"min_pass":0.5}]}`, ""},
		{"all zero weights", `{"id":"r","criteria":[{"name":"a","weight":0,"min_pass":0.5}]}`,
			"rubric r: criterion weights sum to 0 (expected ~1.0)"},
		// Check 6.
		{"score_threshold 1.5 (reference case)", `{"id":"r",` + one + `,"score_threshold":1.5}`, "rubric r: score_threshold 1.5 out of [0,1]"},
		{"score_threshold negative", `{"id":"r",` + one + `,"score_threshold":-0.1}`, "rubric r: score_threshold -0.1 out of [0,1]"},
		{"score_threshold string", `{"id":"r",` + one + `,"score_threshold":"0.8"}`, `rubric r: score_threshold must be a number, got "0.8"`},
		{"score_threshold bool", `{"id":"r",` + one + `,"score_threshold":true}`, "rubric r: score_threshold must be a number, got true"},
		{"score_threshold 0", `{"id":"r",` + one + `,"score_threshold":0}`, ""},
		{"score_threshold 1", `{"id":"r",` + one + `,"score_threshold":1}`, ""},
		{"score_threshold null", `{"id":"r",` + one + `,"score_threshold":null}`, ""},
		// Check 7.
		{"gate_policy democracy (reference case)", `{"id":"r",` + one + `,"gate_policy":"democracy"}`, "rubric r: invalid gate_policy democracy (must be one of strict, majority, unanimous, meta_override, any or at_least_<n>)"},
		{"gate_policy wrong case", `{"id":"r",` + one + `,"gate_policy":"Majority"}`, "rubric r: invalid gate_policy Majority (must be one of strict, majority, unanimous, meta_override, any or at_least_<n>)"},
		{"gate_policy number", `{"id":"r",` + one + `,"gate_policy":1}`, "rubric r: invalid gate_policy 1 (must be one of strict, majority, unanimous, meta_override, any or at_least_<n>)"},
		{"gate_policy strict", `{"id":"r",` + one + `,"gate_policy":"strict"}`, ""},
		{"gate_policy majority", `{"id":"r",` + one + `,"gate_policy":"majority"}`, ""},
		{"gate_policy unanimous", `{"id":"r",` + one + `,"gate_policy":"unanimous"}`, ""},
		{"gate_policy meta_override", `{"id":"r",` + one + `,"gate_policy":"meta_override"}`, ""},
		{"gate_policy null", `{"id":"r",` + one + `,"gate_policy":null}`, ""},
		// Check 8.
		{"aggregation_method average", `{"id":"r",` + one + `,"aggregation_method":"average"}`, "rubric r: invalid aggregation_method average (must be one of mean, median, min, weighted_mean)"},
		{"aggregation_method array", `{"id":"r",` + one + `,"aggregation_method":["mean"]}`, `rubric r: invalid aggregation_method ["mean"] (must be one of mean, median, min, weighted_mean)`},
		{"aggregation_method mean", `{"id":"r",` + one + `,"aggregation_method":"mean"}`, ""},
		{"aggregation_method median", `{"id":"r",` + one + `,"aggregation_method":"median"}`, ""},
		{"aggregation_method min", `{"id":"r",` + one + `,"aggregation_method":"min"}`, ""},
		{"aggregation_method weighted_mean", `{"id":"r",` + one + `,"aggregation_method":"weighted_mean"}`, ""},
		// Check 9.
		{"max_iterations string 3", `{"id":"r",` + one + `,"max_iterations":"3"}`, `rubric r: max_iterations must be a number, got "3"`},
		{"max_iterations 2.5", `{"id":"r",` + one + `,"max_iterations":2.5}`, "rubric r: max_iterations must be integer >= 1 (got 2.5)"},
		{"max_iterations 0", `{"id":"r",` + one + `,"max_iterations":0}`, "rubric r: max_iterations must be integer >= 1 (got 0)"},
		{"max_iterations -1", `{"id":"r",` + one + `,"max_iterations":-1}`, "rubric r: max_iterations must be integer >= 1 (got -1)"},
		{"max_iterations 1", `{"id":"r",` + one + `,"max_iterations":1}`, ""},
		{"max_iterations 1.0", `{"id":"r",` + one + `,"max_iterations":1.0}`, ""},
		{"max_iterations 1e1", `{"id":"r",` + one + `,"max_iterations":1e1}`, ""},
		// judge_types is never validated.
		{"judge_types junk", `{"id":"r",` + one + `,"judge_types":"nonsense"}`, ""},
		// Order: the first failing check wins.
		{"id before criteria", `{"criteria":[]}`, "rubric missing .id"},
		{"criteria before sum", `{"id":"r","criteria":[{"name":"a","weight":0.2}]}`, "rubric r: invalid criteria: a (min_pass is missing)"},
		{"sum before threshold", `{"id":"r","criteria":[{"name":"a","weight":0.2,"min_pass":0.5}],"score_threshold":9}`,
			"rubric r: criterion weights sum to 0.2 (expected ~1.0)"},
		{"threshold before gate", `{"id":"r",` + one + `,"score_threshold":9,"gate_policy":"x"}`, "rubric r: score_threshold 9 out of [0,1]"},
		{"gate before aggregation", `{"id":"r",` + one + `,"gate_policy":"x","aggregation_method":"y"}`, "rubric r: invalid gate_policy x (must be one of strict, majority, unanimous, meta_override, any or at_least_<n>)"},
		{"aggregation before iterations", `{"id":"r",` + one + `,"aggregation_method":"y","max_iterations":0}`, "rubric r: invalid aggregation_method y (must be one of mean, median, min, weighted_mean)"},
		// spec §2.8.
		{"built-in default rubric", defaultRubric, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(json.RawMessage(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(&r)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidateNil(t *testing.T) {
	err := Validate(nil)
	if err == nil || err.Error() != "rubric is empty" {
		t.Fatalf("Validate(nil) = %v, want rubric is empty", err)
	}
}

// TestBuiltinWeightSum pins the float artefact spec §2.7 quotes: the built-in
// weights do not sum to exactly 1, and the rubric must still be valid.
func TestBuiltinWeightSum(t *testing.T) {
	r, err := Parse(json.RawMessage(defaultRubric))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, c := range r.Criteria {
		sum += *c.Weight
	}
	if sum != 0.9999999999999999 {
		t.Fatalf("sum = %v, want 0.9999999999999999", sum)
	}
	if err := Validate(&r); err != nil {
		t.Fatal(err)
	}
}

func TestMaxIterationsClamp(t *testing.T) {
	got, err := MaxIterations([]byte("1e12"))
	if err != nil || got != maxIterationsCap {
		t.Fatalf("MaxIterations(1e12) = %d, %v; want %d", got, err, maxIterationsCap)
	}
}
