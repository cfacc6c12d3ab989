package unidiff

import (
	"fmt"
	"strings"
	"testing"
)

// RenderNoting names what its rendering leaves out, and renders exactly
// what Render does.
func TestRenderNoting(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "diff --git a/f%d.txt b/f%d.txt\n--- a/f%d.txt\n+++ b/f%d.txt\n@@ -0,0 +1,400 @@\n", i, i, i, i)
		for k := 0; k < 400; k++ {
			fmt.Fprintf(&b, "+line %d of a long file\n", k)
		}
	}
	b.WriteString("diff --git a/x.png b/x.png\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/x.png differ\n")
	b.WriteString("diff --git a/small.txt b/small.txt\n--- a/small.txt\n+++ b/small.txt\n@@ -1 +1 @@\n-a\n+b\n")
	files := Parse([]byte(b.String()))
	cases := []struct {
		name   string
		budget int
		want   []string
	}{
		{"room for all", 1 << 20, []string{"x.png: binary, not shown"}},
		{"bodies cut", 4000, []string{"f0.txt: diff cut for space", "f1.txt: diff cut for space", "f2.txt: diff cut for space", "x.png: binary, not shown"}},
		{"summary only", 100, []string{"every file's diff (5 file(s)): the budget of 100 bytes holds only the summary line"}},
	}
	for _, tc := range cases {
		out, left := RenderNoting(files, tc.budget)
		if out != Render(files, tc.budget) {
			t.Errorf("%s: RenderNoting's text differs from Render's", tc.name)
		}
		if strings.Join(left, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: left out = %q, want %q", tc.name, left, tc.want)
		}
	}
	if out, left := RenderNoting(nil, 1000); out != "" || left != nil {
		t.Errorf("no files: %q %q", out, left)
	}
}
