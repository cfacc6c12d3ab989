package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPolicyRootReplacesTheWorkTreeLayers: with a PolicyRoot, layers 4–5
// are read there and never from the work tree (a reviewed head); a
// PolicyRoot without the files has no repository layer at all.
func TestPolicyRootReplacesTheWorkTreeLayers(t *testing.T) {
	write := func(root, threshold string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"settings.json", "settings.local.json"} {
			data := `{"tribunal":{"session":{"score_threshold":` + threshold + `}}}`
			if err := os.WriteFile(filepath.Join(root, ".claude", name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	head := write(t.TempDir(), "0.01")
	base := write(t.TempDir(), "0.9")
	for _, c := range []struct {
		name   string
		policy string
		want   float64
	}{
		{"the user's own tree", "", 0.01},
		{"the base's policy", base, 0.9},
		{"a base with no settings", t.TempDir(), 0.75},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Load(Sources{WorktreeRoot: head, PolicyRoot: c.policy})
			p, err := cfg.Session(defaultRubric(t))
			if err != nil {
				t.Fatal(err)
			}
			if p.ScoreThreshold != c.want {
				t.Errorf("score_threshold = %v, want %v", p.ScoreThreshold, c.want)
			}
		})
	}
}
