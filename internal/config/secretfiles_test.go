package config

import (
	"slices"
	"testing"
)

// TestSecretFilesOnlyAdd: every layer's tribunal.secret_files adds to the
// layers below instead of replacing them, so a repository can leave out
// more of its files but never bring back one the user's settings (or the
// built-in list) leave out; an empty list or a null removes nothing.
func TestSecretFilesOnlyAdd(t *testing.T) {
	e := newEnv(t)
	e.write(1, `{"tribunal":{"secret_files":["plugin.txt"]}}`)
	e.tribunal(2, `{"secret_files":["*.secret", 7]}`)
	e.tribunal(3, `{"secret_files":["local/"]}`)
	e.tribunal(4, `{"secret_files":[]}`)
	e.tribunal(5, `{"secret_files":["deploy/**/token", "!*.secret", "["]}`)
	c := e.load()
	want := []string{"plugin.txt", "*.secret", "local/", "deploy/**/token", "!*.secret", "["}
	if got := c.SecretFiles(); !slices.Equal(got, want) {
		t.Errorf("SecretFiles = %q, want %q", got, want)
	}
	if !e.hasWarning("secret_files[1] is not a string") {
		t.Errorf("no warning for the number: %q", e.warnings)
	}
	if got := c.StopHook().SecretFiles; !slices.Equal(got, want) {
		t.Errorf("StopHook().SecretFiles = %q, want %q", got, want)
	}
	e.warnings = nil
	r := c.SecretRule()
	for path, out := range map[string]bool{
		"plugin.txt": true, "a/db.secret": true, "local/x": true, "deploy/a/token": true,
		".env": true, "main.go": false,
	} {
		if r.MatchName(path) != out {
			t.Errorf("MatchName(%q) = %v, want %v", path, !out, out)
		}
	}
	if !e.hasWarning("negation is not supported") || !e.hasWarning(`"["`) {
		t.Errorf("no warnings for the unusable patterns: %q", e.warnings)
	}

	e.tribunal(4, `{"secret_files":null}`)
	e.tribunal(5, `{"secret_files":"*.txt"}`)
	c = e.load()
	if got := c.SecretFiles(); !slices.Equal(got, want[:3]) {
		t.Errorf("after a null and a mistyped value: SecretFiles = %q, want %q", got, want[:3])
	}
}
