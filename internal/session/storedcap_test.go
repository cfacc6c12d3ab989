package session

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// TestStoredDiffIsCappedInTotal: thousands of files each under the
// per-file bound still make a stored diff of bounded size, which names
// what it left out at its top and still parses; the run warns once.
func TestStoredDiffIsCappedInTotal(t *testing.T) {
	file := func(i int) string {
		name := "gen/f" + strings.Repeat("x", 3) + string(rune('a'+i%26)) + "-" + strconv.Itoa(i) + ".txt"
		body := strings.Repeat("+"+strings.Repeat("y", 99)+"\n", 1000) // ~100 KiB
		return "diff --git a/" + name + " b/" + name + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + name + "\n@@ -0,0 +1,1000 @@\n" + body
	}
	var b strings.Builder
	for i := 0; i < 400; i++ { // ~40 MiB
		b.WriteString(file(i))
	}
	var warned []string
	r := &runner{}
	r.Warn = func(s string) { warned = append(warned, s) }
	stored := r.capStored(b.String())
	if len(stored) > storedDiffBytes {
		t.Fatalf("stored %d bytes, over the %d cap", len(stored), storedDiffBytes)
	}
	first, _, _ := strings.Cut(stored, "\n")
	if !strings.HasPrefix(first, "Note: this stored diff is capped at 16 MiB in total; ") || !strings.Contains(first, "and ") {
		t.Errorf("first line: %q", first)
	}
	kept := len(unidiff.Parse([]byte(stored)))
	if kept == 0 || kept >= 400 || !strings.Contains(first, strconv.Itoa(400-kept)+" file(s) left out") {
		t.Errorf("kept %d files; note %q", kept, first)
	}
	r.capStored(b.String())
	if len(warned) != 1 {
		t.Errorf("warned %d times, want once a run", len(warned))
	}
	if small := "diff --git a/x b/x\n"; r.capStored(small) != small {
		t.Error("a diff under the cap changed")
	}
}
