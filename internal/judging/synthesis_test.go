package judging

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
)

// TestSynthesiserClash: the synthesis never judges itself — a merge is
// refused when any rep of any claude judge, or the meta-judge (also the
// pairwise judge), would call the synthesiser's model (the actor's).
func TestSynthesiserClash(t *testing.T) {
	for _, tc := range []struct {
		name, settings string
		want           string // "" no clash; else the seats named
	}{
		{"defaults: sonnet writes, opus judges", `{}`, ""},
		{"actor on the judges' model", `{"actor":{"model":"claude-opus-4-7"}}`, "judge standard, judge adversarial, the meta-judge"},
		{"one type on the actor's model", `{"judges":{"adversarial":{"model":"claude-sonnet-4-6"}}}`, "(judge adversarial)"},
		{"a rotated rep on the actor's model", `{"judges":{"standard":{"reps":2,"models":["claude-opus-4-7","claude-sonnet-4-6"]}}}`, "(judge standard)"},
		{"meta-judge alone", `{"meta_judge":{"model":"claude-sonnet-4-6"}}`, "(the meta-judge)"},
	} {
		home := t.TempDir()
		os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
		settings := `{"tribunal":` + strings.TrimSuffix(tc.settings, "}")
		if tc.settings != `{}` {
			settings += ","
		}
		settings += `"session":{"judge_types":["standard","adversarial"]}}}`
		os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644)
		j, err := Load(Options{}, env.Env{Home: home})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = j.SynthesiserClash()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no clash", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want a clash naming %s", tc.name, err, tc.want)
		}
	}
}
