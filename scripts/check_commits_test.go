package scripts

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestCheckCommits runs scripts/check-commits.sh on a repository whose
// commits after the base carry the given messages: a subject over 72
// characters or a missing body (a trailer alone is no body) fails the
// range, and only commits after the base are judged.
func TestCheckCommits(t *testing.T) {
	long := "pkg: " + strings.Repeat("x", 68) // 73 characters
	tests := []struct {
		name     string
		messages []string
		wantExit int
		want     string
	}{
		{"subject and why", []string{"pkg: fix a thing\n\nBecause it broke."}, 0, "1 commit(s) after base"},
		{"72 characters with → counted once", []string{"pkg: " + strings.Repeat("→", 67) + "\n\nWhy."}, 0, "1 commit(s)"},
		{"subject too long", []string{long + "\n\nWhy."}, 1, "subject is 73 characters, over 72"},
		{"no body", []string{"pkg: fix a thing"}, 1, "no body says why: pkg: fix a thing"},
		{"a trailer is not a why", []string{"pkg: fix a thing\n\nSigned-off-by: A <a@example.com>"}, 1, "no body says why"},
		{"one bad among good", []string{"a: one\n\nWhy.", "b: two", "c: three\n\nWhy."}, 1, "1 problem(s) in the 3 commit(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := testkit.GitRepo(t)
			dir := r.Dir
			// The base's own message breaks both rules: it is not judged.
			r.Git("commit", "-q", "--allow-empty", "-m", long)
			r.Git("tag", "base")
			for _, m := range tt.messages {
				r.Git("commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", m)
			}
			script, err := filepath.Abs("check-commits.sh")
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", script, "base")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			exit := 0
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if exit != tt.wantExit || !strings.Contains(string(out), tt.want) {
				t.Errorf("exit %d, want %d; output:\n%s\nwant it to contain %q", exit, tt.wantExit, out, tt.want)
			}
		})
	}
}
