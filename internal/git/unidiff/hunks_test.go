package unidiff

import (
	"reflect"
	"testing"
)

// TestHunksRoundTrip reads real `git diff` output into headers and hunks
// and writes it back byte for byte: a caller that edits hunks (internal/judging/calibrate/mutate)
// changes only what it edits.
func TestHunksRoundTrip(t *testing.T) {
	diff := "diff --git a/sum.go b/sum.go\nindex 4fc5aa7..c028763 100644\n--- a/sum.go\n+++ b/sum.go\n" +
		"@@ -3,4 +3,5 @@ package csvsum\n \n import (\n+\t\"errors\"\n \t\"fmt\"\n \t\"io\"\n" +
		"@@ -20 +21 @@ func Sum(r io.Reader) (float64, error) {\n-\treturn 0, nil\n+\treturn total, nil\n\\ No newline at end of file\n" +
		"diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n"
	files := Parse([]byte(diff))
	if len(files) != 2 {
		t.Fatalf("%d files", len(files))
	}
	hunks := files[0].Hunks()
	want := []Hunk{
		{OldStart: 3, OldCount: 4, NewStart: 3, NewCount: 5, Section: " package csvsum", Lines: []string{" ", " import (", "+\t\"errors\"", " \t\"fmt\"", " \t\"io\""}},
		{OldStart: 20, OldCount: 1, NewStart: 21, NewCount: 1, Section: " func Sum(r io.Reader) (float64, error) {", Lines: []string{"-\treturn 0, nil", "+\treturn total, nil", `\ No newline at end of file`}},
	}
	if !reflect.DeepEqual(hunks, want) {
		t.Fatalf("hunks\n%#v\nwant\n%#v", hunks, want)
	}
	var back string
	for _, f := range files {
		back += Format(f.Header(), f.Hunks())
	}
	if back != diff {
		t.Errorf("written back:\n%s\nwant:\n%s", back, diff)
	}
	// The copies are the caller's: editing one leaves the file alone.
	hunks[0].Lines[0] = "changed"
	if files[0].Hunks()[0].Lines[0] != " " {
		t.Error("Hunks returned the file's own slice")
	}
}
