package records

import (
	"strings"
	"testing"
)

const tid = "01HZ0000000000000000000001"

// The stop file's rules in full are exercised through ReadStopFile (stopread_test.go);
// these cases pin each rule here, where it lives.
func TestDecodeStopFile(t *testing.T) {
	ok := func(task, outcome, score string) string {
		return `{"task_id":` + task + `,"outcome":` + outcome + `,"verdict":{"score":` + score + `,"passed":true}}`
	}
	cases := []struct{ name, in, wantErr string }{
		{"valid", ok(`"`+tid+`"`, `"accepted"`, `0.9`), ""},
		{"bounds", ok(`"`+tid+`"`, `"rejected"`, `0`), ""},
		{"empty", " ", "the file is empty"},
		{"array", `[]`, "not a JSON object"},
		{"too deep", `{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`, "nesting"},
		{"mistyped field", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{"score":1},"written_at":7}`, "cannot decode it: written_at holds a number where a string belongs"},
		{"mistyped verdict field", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{"score":1,"confidence":"high"}}`, "cannot decode it: verdict.confidence holds a string where a number belongs"},
		{"mistyped judge", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{"score":1},"judge":[]}`, "cannot decode it: judge holds an array where an object belongs"},
		{"truncated", `{"task_id":"` + tid + `",`, "cannot decode it: unexpected end of JSON input"},
		{"no task id", `{"outcome":"accepted","verdict":{"score":0.9}}`, "task_id is missing"},
		{"task id not a ULID", ok(`"../x"`, `"accepted"`, `0.9`), `task_id "../x" is not a ULID`},
		{"outcome", ok(`"`+tid+`"`, `"failed"`, `0.9`), `outcome "failed" is neither accepted nor rejected`},
		{"no verdict", `{"task_id":"` + tid + `","outcome":"accepted"}`, "verdict is missing"},
		{"score string", ok(`"`+tid+`"`, `"accepted"`, `"0.9"`), `verdict.score "0.9" is not a number in [0,1]`},
		{"score null", ok(`"`+tid+`"`, `"accepted"`, `null`), "verdict.score null is not"},
		{"score above", ok(`"`+tid+`"`, `"accepted"`, `1.5`), "verdict.score 1.5 is not"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := DecodeStopFile([]byte(c.in))
			if c.wantErr == "" {
				if err != nil || f.TaskID != tid || f.Verdict.Score != map[string]float64{"valid": 0.9, "bounds": 0}[c.name] {
					t.Errorf("got %+v, %v", f, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("err = %v, want %q", err, c.wantErr)
			}
		})
	}
}

func TestDecodeJudgement(t *testing.T) {
	cases := []struct{ name, in, wantErr, outcome string }{
		{"failed", `{"task_id":"` + tid + `","outcome":"failed","error":"timed out","duration_ms":1000}`, "", OutcomeFailed},
		{"cancelled without reason", `{"task_id":"` + tid + `","outcome":"cancelled"}`, "", OutcomeCancelled},
		{"failed without task id", `{"outcome":"failed"}`, "task_id is missing or not a ULID", ""},
		{"failed with a path for a task id", `{"task_id":"../../x","outcome":"failed"}`, "task_id is missing or not a ULID", ""},
		{"verdict", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{"score":0.8},"rewake":true}`, "", OutcomeAccepted},
		{"verdict checked like a stop file", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{"score":"high"}}`, `verdict.score "high" is not`, ""},
		{"unknown outcome", `{"task_id":"` + tid + `","outcome":"maybe","verdict":{"score":0.8}}`, `outcome "maybe" is neither`, ""},
		{"not JSON", `{"task_id":`, "cannot decode it", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j, err := DecodeJudgement([]byte(c.in))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || j.TaskID != tid || j.Outcome != c.outcome {
				t.Fatalf("got %+v, %v", j, err)
			}
			if (j.Verdict != nil) != (c.outcome == OutcomeAccepted) {
				t.Errorf("verdict %+v for outcome %s", j.Verdict, c.outcome)
			}
		})
	}
}
