package provider

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/config"
)

// TestCheckAll pins what `config --check` reports of the providers: each
// problem a run would stop on, once, and nothing once the key is set.
func TestCheckAll(t *testing.T) {
	ps := []config.Provider{
		{Provider: "openai", BaseURL: "http://x/v1", Key: "tribunal.judges.security"},
		{Provider: "nope", Key: "tribunal.judges.standard"},
		{Provider: "openai", Model: "m", BaseURL: "http://x/v1", APIKeyEnv: "META_KEY", Key: "tribunal.meta_judge"},
		{Provider: "openai", Model: "m", BaseURL: "http://x/v1", APIKeyEnv: "META_KEY", Key: "tribunal.meta_judge"},
		{Key: "tribunal.stop_hook"},
	}
	got := CheckAll(ps, nil)
	joined := strings.Join(got, "\n")
	for _, want := range []string{"tribunal.judges.security.model", `tribunal.judges.standard.provider: unknown provider "nope"`, "META_KEY is not set"} {
		if !strings.Contains(joined, want) {
			t.Errorf("CheckAll lacks %q:\n%s", want, joined)
		}
	}
	if len(got) != 3 {
		t.Errorf("CheckAll = %d problems, want 3 (each once):\n%s", len(got), joined)
	}
	if got := strings.Join(CheckAll(ps, []string{"META_KEY=k"}), "\n"); strings.Contains(got, "META_KEY") {
		t.Errorf("a set key variable is still reported:\n%s", got)
	}
}
