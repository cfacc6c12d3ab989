package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSchemaValidatorNotLinked: santhosh-tekuri/jsonschema compiles every
// draft's metaschema in its init() (~3.5 ms on every command); it lives
// in the tribunal-schema helper, which tribunal-session runs only when a
// schema is to be compiled or a file validated.
func TestSchemaValidatorNotLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/santhosh-tekuri/") || strings.HasSuffix(pkg, "/internal/judging/schemaengine") {
			t.Errorf("tribunal-session links %s", pkg)
		}
	}
}
