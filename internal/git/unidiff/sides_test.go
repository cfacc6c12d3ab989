package unidiff

import "testing"

// TestDiffSides: which lines of a pull request's diff a review comment may
// sit on, on which side (new feature: DiffSides did not exist).
func TestDiffSides(t *testing.T) {
	const twoHunks = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n" +
		"@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c\n" +
		"@@ -10,2 +11,3 @@\n k\n+TODO\n l\n"
	tests := []struct {
		name string
		diff string
		line int
		want string // Side of a head line
		left []int  // base lines removed
	}{
		{"added line", twoHunks, 2, SideRight, []int{2}},
		{"second added line", twoHunks, 3, SideRight, []int{2}},
		{"context line before", twoHunks, 1, SideRight, []int{2}},
		{"context line after", twoHunks, 4, SideRight, []int{2}},
		{"between hunks", twoHunks, 7, "", []int{2}},
		{"second hunk added", twoHunks, 12, SideRight, []int{2}},
		{"second hunk context", twoHunks, 13, SideRight, []int{2}},
		{"after the last hunk", twoHunks, 14, "", []int{2}},
		{"new file", "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n", 2, SideRight, nil},
		{"deletion only: the kept line", "diff --git a/d b/d\n--- a/d\n+++ b/d\n@@ -1,2 +1 @@\n-gone\n kept\n", 1, SideRight, []int{1}},
		{"hunk without counts", "diff --git a/s b/s\n--- a/s\n+++ b/s\n@@ -5 +5 @@\n-x\n+y\n", 5, SideRight, []int{5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := Parse([]byte(tc.diff))
			if len(files) != 1 {
				t.Fatalf("parsed %d files", len(files))
			}
			s := files[0].DiffSides()
			if got := s.Side(tc.line); got != tc.want {
				t.Errorf("Side(%d) = %q, want %q", tc.line, got, tc.want)
			}
			if len(s.Left) != len(tc.left) {
				t.Errorf("Left = %v, want %v", s.Left, tc.left)
			}
			for _, n := range tc.left {
				if !s.Left[n] {
					t.Errorf("Left lacks %d: %v", n, s.Left)
				}
			}
		})
	}
}
