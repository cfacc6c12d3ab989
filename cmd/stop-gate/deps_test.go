package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotPathDependencies keeps the Stop hook's binary lean: it starts on
// every turn, so it must not link go-git (package initialisation ~1.3 ms)
// nor an HTTP client (net/http doubled the binary and added ~0.7 ms of CPU
// per run; its openai calls go through tribunal-session provider-call).
func TestHotPathDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "net/http" || strings.HasPrefix(pkg, "github.com/go-git/") || strings.HasPrefix(pkg, "github.com/santhosh-tekuri/") {
			t.Errorf("stop-gate links %s", pkg)
		}
	}
}
