package decide

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecide checks that no input panics Run, that every success is one
// line of valid JSON with the documented shape, that Run is deterministic,
// and that every failure is an input error.
func FuzzDecide(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"policy":"meta_override","meta":{"override_recommendation":"accept"},"verdicts":[{"score":0.9,"passed":true}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Run(in)
		if err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("Run(%q) error %v does not wrap ErrInput", in, err)
			}
			return
		}
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("output is not one line: %q", out)
		}
		var res struct {
			AggregatedScore *float64 `json:"aggregated_score"`
			Disagreement    *float64 `json:"disagreement"`
			Passed          *bool    `json:"passed"`
			Reason          *string  `json:"reason"`
			Warnings        []string `json:"warnings"`
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON output %q", out)
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if res.AggregatedScore == nil || res.Disagreement == nil || res.Passed == nil || res.Warnings == nil {
			t.Fatalf("output %q lacks a required field", out)
		}
		if *res.Passed != (res.Reason == nil) {
			t.Fatalf("output %q: reason must be present exactly when blocked", out)
		}
		again, err := Run(in)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Run is not deterministic: %q then %q, %v", out, again, err)
		}
	})
}
