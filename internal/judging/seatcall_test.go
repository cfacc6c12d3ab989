package judging

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
)

// TestSeatCall: tune's proposer sits on the panel's first seat — a
// claude seat takes tune.model, another family's seat keeps its model.
func TestSeatCall(t *testing.T) {
	for _, tc := range []struct {
		name, judges, asked, want string
	}{
		{"claude", `{"model":"claude-opus-4-7"}`, "claude-haiku-4-5", "claude-haiku-4-5"},
		{"claude, no model asked", `{"model":"claude-opus-4-7"}`, "", "claude-opus-4-7"},
		{"openai", `{"standard":{"provider":"openai","model":"gpt-x","base_url":"http://127.0.0.1:9/v1","api_key_env":"K"}}`, "claude-haiku-4-5", "gpt/gpt-x"},
	} {
		home := t.TempDir()
		os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
		settings := `{"tribunal":{"session":{"judge_types":["standard"]},"judges":` + tc.judges + `}}`
		os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644)
		j, err := Load(Options{}, env.Env{Home: home, Getenv: func(k string) string { return map[string]string{"K": "secret"}[k] }})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, model := j.SeatCall(tc.asked)
		if model != tc.want {
			t.Errorf("%s: model %q, want %q", tc.name, model, tc.want)
		}
	}
}
