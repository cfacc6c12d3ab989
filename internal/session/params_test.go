package session

import (
	"encoding/json"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// TestRecordParams pins the manifest's "effective" parameters for the
// shipped defaults: snake_case keys, durations in configured seconds.
func TestRecordParams(t *testing.T) {
	cfg := config.Load(config.Sources{})
	r, ok := rubric.LoadSet(rubric.LoadOptions{Builtins: cfg.BuiltinRubrics()}).Lookup("default")
	if !ok {
		t.Fatal("the embedded defaults lack the default rubric")
	}
	p, err := cfg.Session(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(recordParams(p))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"score_threshold":0.75,"max_iterations":3,"gate_policy":"majority","aggregation_method":"weighted_mean",` +
		`"judge_types":["standard","adversarial"],"dissent_threshold":0.25,"min_criterion_coverage":0.6,` +
		`"actor_model":"claude-sonnet-4-6","meta_model":"claude-opus-4-7","actor_max_output_tokens":4096,` +
		`"judge_max_output_tokens":2048,"meta_max_output_tokens":1024,"judge_timeout_seconds":600,` +
		`"actor_timeout_seconds":1800,"meta_timeout_seconds":600,"budget_usd":5}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}
