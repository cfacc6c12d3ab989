package unidiff

import (
	"reflect"
	"testing"
)

func TestLinesNumbersEachSide(t *testing.T) {
	diff := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -3,3 +3,4 @@ func f() {\n ctx\n-old\n+new\n+more\n tail\n\\ No newline at end of file\n@@ -20 +21 @@\n-a\n+b\n"
	files := Parse([]byte(diff))
	if len(files) != 1 {
		t.Fatalf("files = %d", len(files))
	}
	want := []Line{
		{' ', 3, "ctx"}, {'-', 4, "old"}, {'+', 4, "new"}, {'+', 5, "more"}, {' ', 6, "tail"},
		{'-', 20, "a"}, {'+', 21, "b"},
	}
	if got := files[0].Lines(); !reflect.DeepEqual(got, want) {
		t.Errorf("Lines() =\n%v\nwant\n%v", got, want)
	}
}
