package unidiff

import (
	"reflect"
	"testing"
)

func TestAddedLines(t *testing.T) {
	tests := []struct {
		name string
		diff string
		want []AddedLine
	}{
		{"modified, two hunks", "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c\n@@ -10,2 +11,3 @@\n k\n+TODO\n l\n",
			[]AddedLine{{2, "B"}, {3, "C"}, {12, "TODO"}}},
		{"new file", "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n",
			[]AddedLine{{1, "one"}, {2, "two"}}},
		{"deletion only", "diff --git a/d b/d\n--- a/d\n+++ b/d\n@@ -1,2 +1 @@\n-gone\n kept\n", []AddedLine{}},
		{"a removed line that looks like a header", "diff --git a/h b/h\n--- a/h\n+++ b/h\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n z\n", []AddedLine{{1, "++ y"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := Parse([]byte(tc.diff))
			if len(files) != 1 {
				t.Fatalf("parsed %d files", len(files))
			}
			if got := files[0].AddedLines(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("AddedLines = %#v, want %#v", got, tc.want)
			}
		})
	}
	if got := NewFile("u.txt", "100644", []byte("a\nb\n"), 4).AddedLines(); !reflect.DeepEqual(got, []AddedLine{{1, "a"}, {2, "b"}}) {
		t.Errorf("untracked file: %#v", got)
	}
}

// TestAddedByPath: the added line numbers by path, a deleted file and a
// binary one adding none.
func TestAddedByPath(t *testing.T) {
	patch := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,3 @@\n x\n-y\n+z\n+w\n" +
		"diff --git a/gone.go b/gone.go\ndeleted file mode 100644\n--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-q\n" +
		"diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n"
	got := AddedByPath(Parse([]byte(patch)))
	want := map[string]map[int]bool{"a.go": {2: true, 3: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("AddedByPath = %v, want %v", got, want)
	}
}
