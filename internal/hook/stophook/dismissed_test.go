package stophook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestDismissedFor: the Stop judge is told of the dismissals on the files
// the turn changed and of those on no file (a dismissed verdict's
// feedback), from the repository's shared file and the person's list —
// not of those on files it did not touch.
func TestDismissedFor(t *testing.T) {
	wt, proj := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(wt, ".tribunal"), 0o755)
	os.WriteFile(filepath.Join(wt, filepath.FromSlash(dismiss.SharedFile)), []byte("tf2:shared team reason\n"), 0o644)
	dismiss.WritePersonal(filepath.Join(proj, records.DismissalsFile), []dismiss.Entry{
		{Fingerprint: "tf2:a", File: "a.go", Line: 3, Topic: "safety", Message: "nil map", Reason: "never nil"},
		{Fingerprint: "tf2:b", File: "b.go", Line: 9, Topic: "safety", Message: "overflow", Reason: "bounded"},
		{Fingerprint: "tf2:c", Topic: "stop", Message: "no tests were added", Reason: "tests live elsewhere"},
	})
	j := job{Worktree: wt, ProjectDir: proj}
	changes := []unidiff.File{unidiff.NewFile("a.go", "100644", []byte("x\n"), 2)}
	got := dismissedFor(j, changes, func(s string) { t.Errorf("warning %s", s) })
	var lines []string
	for _, d := range got {
		lines = append(lines, d.File+"|"+d.Message+"|"+d.Reason)
	}
	want := "a.go|nil map|never nil\n|no tests were added|tests live elsewhere"
	if strings.Join(lines, "\n") != want {
		t.Fatalf("told of:\n%s\nwant:\n%s", strings.Join(lines, "\n"), want)
	}
	if got := dismissedFor(job{Worktree: t.TempDir(), ProjectDir: t.TempDir()}, changes, nil); got != nil {
		t.Fatalf("nothing dismissed, told of %v", got)
	}
}
