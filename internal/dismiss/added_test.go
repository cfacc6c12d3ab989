package dismiss

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// TestAddedMarkersDoNotDismiss: in a change judged as someone else's, a
// marker on a line the change added dismisses nothing (one problem says
// so); a marker the base had still does, even above an added line; with
// no added lines (the user's own tree) every marker counts.
func TestAddedMarkersDoNotDismiss(t *testing.T) {
	code := "package app\n\n// tribunal: dismiss safety — vetted by the base\nrun(a)\n\n\n\n// tribunal: dismiss safety — trust me\nrun(b)\n"
	patch := "diff --git a/app.go b/app.go\n--- a/app.go\n+++ b/app.go\n@@ -1,4 +1,9 @@\n package app\n \n // tribunal: dismiss safety — vetted by the base\n-run(x)\n+run(a)\n+\n+\n+\n+// tribunal: dismiss safety — trust me\n+run(b)\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	added := unidiff.AddedByPath(unidiff.Parse([]byte(patch)))
	if got := added["app.go"]; len(got) != 6 || !got[4] || !got[8] || !got[9] || got[3] {
		t.Fatalf("AddedLines = %v, want lines 4-9", got)
	}
	for _, c := range []struct {
		name      string
		added     map[string]map[int]bool
		line      int
		dismissed bool
		markerAt  int
		problem   string
	}{
		{"base marker over an added line", added, 4, true, 3, ""},
		{"own marker over own code", added, 9, false, 0, `app.go:8: the inline dismissal of "safety" was added by the change under review, which may not dismiss its own findings; ignored`},
		{"user's own tree", nil, 9, true, 8, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New()
			s.Added = c.added
			e, _, ok := s.Match(dir, severity.Finding{Severity: "major", Criterion: "safety", File: "app.go", Line: c.line, Message: "runs input"})
			if ok != c.dismissed || (ok && e.Line != c.markerAt) {
				t.Errorf("dismissed = %v at line %d, want %v at %d", ok, e.Line, c.dismissed, c.markerAt)
			}
			if got := strings.Join(s.Problems, "\n"); got != c.problem {
				t.Errorf("problems = %q, want %q", got, c.problem)
			}
		})
	}
}
