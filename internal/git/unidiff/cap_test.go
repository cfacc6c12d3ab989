package unidiff

import (
	"strconv"
	"strings"
	"testing"
)

func fileDiff(name string, lines int) string {
	var b strings.Builder
	b.WriteString("diff --git a/" + name + " b/" + name + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + name + "\n")
	b.WriteString("@@ -0,0 +1," + strconv.Itoa(lines) + " @@\n")
	for i := 0; i < lines; i++ {
		// A content line that looks like a header must not split a file.
		b.WriteString("+diff --git a/fake b/fake\n")
	}
	return b.String()
}

func TestCap(t *testing.T) {
	small, big, mid := fileDiff("a.txt", 2), fileDiff("big.bin", 100), fileDiff("c.txt", 3)
	diff := small + big + mid
	cases := []struct {
		name     string
		max      int
		wantKept string
		wantLeft []string
	}{
		{"fits whole", len(diff), diff, nil},
		{"the big file is left out, the later small one kept", len(small) + len(mid), small + mid, []string{"big.bin"}},
		{"only the first fits", len(small), small, []string{"big.bin", "c.txt"}},
		{"nothing fits", 10, "", []string{"a.txt", "big.bin", "c.txt"}},
		{"preamble kept", len("note\n") + len(small), "note\n" + small, []string{"big.bin", "c.txt"}},
	}
	for _, c := range cases {
		in := diff
		if strings.HasPrefix(c.wantKept, "note\n") {
			in = "note\n" + diff
		}
		kept, left := Cap(in, c.max)
		if kept != c.wantKept || strings.Join(left, ",") != strings.Join(c.wantLeft, ",") {
			t.Errorf("%s: kept %d bytes, left %v; want %d bytes, %v", c.name, len(kept), left, len(c.wantKept), c.wantLeft)
		}
		if len(kept) > c.max {
			t.Errorf("%s: kept %d bytes over the cap %d", c.name, len(kept), c.max)
		}
		if files := Parse([]byte(kept)); len(files) != 3-len(c.wantLeft) {
			t.Errorf("%s: the kept diff parses into %d files, want %d", c.name, len(files), 3-len(c.wantLeft))
		}
	}
}
