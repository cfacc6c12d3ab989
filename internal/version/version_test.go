package version

import (
	"encoding/json"
	"os"
	"testing"
)

// TestVersionIsTheManifests: --version, the plugin manifest and the local
// marketplace's entry all say the same version.
func TestVersionIsTheManifests(t *testing.T) {
	var plugin struct {
		Version string `json:"version"`
	}
	readJSON(t, "../../plugin/.claude-plugin/plugin.json", &plugin)
	var market struct {
		Plugins []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"plugins"`
	}
	readJSON(t, "../../plugin/marketplace.json", &market)
	if plugin.Version == "" || plugin.Version != Version {
		t.Errorf("plugin.json version %q, internal/version.Version %q: bump them together", plugin.Version, Version)
	}
	for _, p := range market.Plugins {
		if p.Name == "tribunal" && p.Version != plugin.Version {
			t.Errorf("marketplace.json lists tribunal %q, plugin.json says %q", p.Version, plugin.Version)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
