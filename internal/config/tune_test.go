package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTuneSettings(t *testing.T) {
	c := Load(Sources{})
	if got := c.TuneMinCases(); got != 30 {
		t.Errorf("default tune.min_cases = %d, want 30", got)
	}
	if got := c.TuneModel(); got != c.JudgeModel("standard") {
		t.Errorf("default tune.model = %q, want the judges' %q", got, c.JudgeModel("standard"))
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"tribunal":{"tune":{"min_cases":12,"model":"claude-haiku-4-5"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c = Load(Sources{WorktreeRoot: root})
	if c.TuneMinCases() != 12 || c.TuneModel() != "claude-haiku-4-5" {
		t.Errorf("tune settings not read: %d %q", c.TuneMinCases(), c.TuneModel())
	}
}
