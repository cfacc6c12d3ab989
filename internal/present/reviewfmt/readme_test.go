package reviewfmt

import (
	"os"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// TestREADMESeverityTable keeps the user docs' table of what a severity
// becomes in SARIF and Code Quality (docs/review-ci.md, moved there from
// the README) equal to the one table the renderers read.
func TestREADMESeverityTable(t *testing.T) {
	data, err := os.ReadFile("../../../docs/review-ci.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "| severity | SARIF level | Code Quality |")
	if start < 0 {
		t.Fatal("docs/review-ci.md has no severity table")
	}
	seen := map[severity.Level]bool{}
	for _, row := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(row, "|") {
			break
		}
		cells := strings.Split(strings.Trim(row, "| "), "|")
		want := mapping{strings.Trim(cells[1], " `"), strings.Trim(cells[2], " `")}
		for _, name := range strings.Split(cells[0], ",") {
			l, ok := severity.Parse(strings.Trim(name, " `"))
			if !ok {
				t.Errorf("docs/review-ci.md row %q: %q is not a severity", row, name)
				continue
			}
			seen[l] = true
			if levels[l] != want {
				t.Errorf("docs/review-ci.md says %s → %+v; the renderers use %+v", l, want, levels[l])
			}
		}
	}
	for l := severity.Info; l <= severity.Blocker; l++ {
		if !seen[l] {
			t.Errorf("docs/review-ci.md's severity table lacks %s", l)
		}
	}
}
