package childenv

import (
	"slices"
	"testing"
)

// GitEnv drops the variables that would point git at another repository,
// replaces the added ones, and ends with the recursion guard.
func TestGitEnv(t *testing.T) {
	got := GitEnv([]string{"PATH=/bin", "GIT_DIR=/elsewhere", "GIT_INDEX_FILE=/i", GuardEnv + "=0", "GIT_TERMINAL_PROMPT=1", "HOME=/h"})
	want := []string{"PATH=/bin", "HOME=/h", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", GuardEnv + "=1"}
	if !slices.Equal(got, want) {
		t.Fatalf("GitEnv = %q, want %q", got, want)
	}
}

// GitArgs puts the read-only options before the subcommand.
func TestGitArgs(t *testing.T) {
	got := GitArgs("status", "-z")
	if len(got) < 3 || !slices.Equal(got[len(got)-2:], []string{"status", "-z"}) || !slices.Contains(got, "core.fsmonitor=false") || !slices.Contains(got, "--no-optional-locks") {
		t.Fatalf("GitArgs = %q", got)
	}
}
