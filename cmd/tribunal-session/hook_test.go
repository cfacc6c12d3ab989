package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/githook"
)

// TestCIHooksAreTheShims: the hooks in ci/hooks that people copy by hand
// are, but for their comments, what 'hook install --gate' writes (so
// hook-run.txtar's gated runs are theirs, and 'hook uninstall' and a
// reinstall know them as tribunal's).
func TestCIHooksAreTheShims(t *testing.T) {
	code := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "# ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, k := range []githook.Kind{githook.PreCommit, githook.PrePush} {
		path := filepath.Join("..", "..", "ci", "hooks", string(k))
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s is not executable", path)
		}
		if !githook.IsOurs(data) || code(string(data)) != code(githook.Script(k, true)) {
			t.Errorf("%s is not the gated shim:\n%s\nwant, comments aside:\n%s", path, data, githook.Script(k, true))
		}
	}
}
