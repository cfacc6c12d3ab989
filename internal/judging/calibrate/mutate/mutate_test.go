package mutate

import (
	"errors"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// pageDiff is a real `git diff` of the starter set's pagecount-correct
// case with a test file added: two hunks in page.go, one in page_test.go.
const pageDiff = `diff --git a/page.go b/page.go
index 1c2d3e4..5f6a7b8 100644
--- a/page.go
+++ b/page.go
@@ -1,6 +1,8 @@
 // Package pagecount pages a list.
 package pagecount
 
+import "errors"
+
 // Page returns page n (1-based) of items, size items a page.
 func Page(items []string, size, n int) []string {
 	start := (n - 1) * size
@@ -17,3 +19,12 @@ func Page(items []string, size, n int) []string {
 	}
 	return items[start:end]
 }
+
+// Count is the number of pages of n items.
+func Count(n, size int) (int, error) {
+	// size <= 0 has no pages
+	if size <= 0 {
+		return 0, errors.New("size must be positive")
+	}
+	return (n + size - 1) / size, nil
+}
diff --git a/page_test.go b/page_test.go
index 2a3b4c5..6d7e8f9 100644
--- a/page_test.go
+++ b/page_test.go
@@ -10,3 +10,8 @@ func TestPage(t *testing.T) {
 		t.Fatal(got)
 	}
 }
+
+func TestCount(t *testing.T) {
+	if n, _ := Count(5, 2); n != 3 {
+		t.Fatal(n)
+	}
+}
`

// pyDiff is a one-hunk Python change with a while loop.
const pyDiff = `diff --git a/bisect.py b/bisect.py
index 0123456..789abcd 100644
--- a/bisect.py
+++ b/bisect.py
@@ -1,3 +1,7 @@
 def find(xs, x):
     lo, hi = 0, len(xs)
+    while lo < hi:
+        mid = (lo + hi) // 2
+        if xs[mid] == x:
+            return mid
     return -1
`

// jsDiff is a C-family condition in parentheses and a Go init statement.
const jsDiff = `diff --git a/a.js b/a.js
index 0123456..789abcd 100644
--- a/a.js
+++ b/a.js
@@ -1,2 +1,3 @@
 function f(a, b) {
+  if ((a || b) && ok(a)) { return "x < y"; }
 }
diff --git a/b.go b/b.go
index 0123456..789abcd 100644
--- a/b.go
+++ b/b.go
@@ -1,2 +1,5 @@
 func g() error {
+	if v, err := h(); err != nil {
+		return err
+	}
 }
`

// docDiff changes only a README: nothing the line rules read.
const docDiff = `diff --git a/README.md b/README.md
index 0123456..789abcd 100644
--- a/README.md
+++ b/README.md
@@ -1,1 +1,2 @@
 # title
+if a > b the page says so
`

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, diff string
		kind       Kind
		// want are lines the mutant has and the original has not; gone
		// lines the original has and the mutant has not.
		want, gone []string
		change     string
		skip       string
	}{
		{name: "drop the largest hunk", diff: pageDiff, kind: DropHunk,
			gone:   []string{"@@ -17,3 +19,12 @@ func Page(items []string, size, n int) []string {", "+func Count(n, size int) (int, error) {"},
			change: `page.go: hunk "@@ -17,3 +19,12 @@ func Page(items []string, size, n int) []string {" dropped (9 changed lines)`},
		{name: "drop the only code hunk of a file", diff: jsDiff, kind: DropHunk,
			gone:   []string{"diff --git a/b.go b/b.go", "+	if v, err := h(); err != nil {"},
			change: `b.go: hunk "@@ -1,2 +1,5 @@" dropped (3 changed lines)`},
		{name: "single hunk", diff: pyDiff, kind: DropHunk, skip: "the diff has a single hunk; dropping it leaves no change"},
		{name: "invert go if", diff: pageDiff, kind: InvertCondition,
			want: []string{"+	if !(size <= 0) {"}, gone: []string{"+	if size <= 0 {"},
			change: `page.go:26: "if size <= 0 {" → "if !(size <= 0) {"`},
		{name: "invert python while", diff: pyDiff, kind: InvertCondition,
			want: []string{"+    while not (lo < hi):"}, change: `bisect.py:3: "while lo < hi:" → "while not (lo < hi):"`},
		{name: "invert parenthesised condition", diff: jsDiff, kind: InvertCondition,
			want: []string{`+  if (!((a || b) && ok(a))) { return "x < y"; }`}},
		{name: "no condition in code", diff: docDiff, kind: InvertCondition,
			skip: "no added line of code opens with a condition (if, else if, elif, while) in a form the rule reads"},
		{name: "delete the tests", diff: pageDiff, kind: DeleteTest,
			gone: []string{"diff --git a/page_test.go b/page_test.go", "+func TestCount(t *testing.T) {"}, change: "test changes dropped: page_test.go"},
		{name: "no test file", diff: pyDiff, kind: DeleteTest, skip: "the diff changes no test file"},
		{name: "off by one skips comments", diff: pageDiff, kind: OffByOne,
			want: []string{"+	if size < 0 {", "+	// size <= 0 has no pages"}, gone: []string{"+	if size <= 0 {"},
			change: `page.go:26: "if size <= 0 {" → "if size < 0 {"`},
		{name: "off by one python", diff: pyDiff, kind: OffByOne, want: []string{"+    while lo <= hi:"}},
		{name: "off by one skips strings", diff: jsDiff, kind: OffByOne, skip: "no added line of code compares with a spaced <, <=, > or >="},
		{name: "off by one not in prose", diff: docDiff, kind: OffByOne, skip: "no added line of code compares with a spaced <, <=, > or >="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Apply(tc.kind, unidiff.Parse([]byte(tc.diff)))
			if tc.skip != "" {
				var na *NotApplicable
				if !errors.As(err, &na) || na.Reason != tc.skip || na.Kind != tc.kind {
					t.Fatalf("err = %v, want %s not applicable: %s", err, tc.kind, tc.skip)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != tc.kind || m.Diff == tc.diff {
				t.Fatalf("kind %s, diff unchanged: %v", m.Kind, m.Diff == tc.diff)
			}
			for _, l := range tc.want {
				if !hasLine(m.Diff, l) || hasLine(tc.diff, l) && !strings.HasPrefix(l, "+	//") {
					t.Errorf("mutant lacks new line %q:\n%s", l, m.Diff)
				}
			}
			for _, l := range tc.gone {
				if hasLine(m.Diff, l) || !hasLine(tc.diff, l) {
					t.Errorf("mutant still has %q:\n%s", l, m.Diff)
				}
			}
			if tc.change != "" && m.Change != tc.change {
				t.Errorf("change = %s\nwant     %s", m.Change, tc.change)
			}
			// Every mutant is a diff the parser reads back.
			if len(unidiff.Parse([]byte(m.Diff))) == 0 {
				t.Error("mutant parses to no file")
			}
		})
	}
}

func hasLine(diff, line string) bool {
	for _, l := range strings.Split(diff, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// TestDropHunkRenumbers: dropping a file's first hunk moves its later
// hunks up by the lines the dropped one added.
func TestDropHunkRenumbers(t *testing.T) {
	diff := strings.Replace(pageDiff, "+import \"errors\"\n+\n", "+import \"errors\"\n+import \"fmt\"\n+import \"io\"\n+import \"os\"\n+import \"strings\"\n+import \"sort\"\n+import \"bytes\"\n+import \"time\"\n+\n", 1)
	diff = strings.Replace(diff, "@@ -1,6 +1,8 @@", "@@ -1,6 +1,15 @@", 1)
	diff = strings.Replace(diff, "@@ -17,3 +19,12 @@", "@@ -17,3 +26,12 @@", 1)
	m, err := Apply(DropHunk, unidiff.Parse([]byte(diff)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Diff, "@@ -17,3 +17,12 @@") || strings.Contains(m.Diff, "+import \"fmt\"") {
		t.Errorf("the later hunk is not renumbered:\n%s", m.Diff)
	}
}

func TestApplyRefusesBinary(t *testing.T) {
	diff := "diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n" + pyDiff
	_, err := Apply(InvertCondition, unidiff.Parse([]byte(diff)))
	var na *NotApplicable
	if !errors.As(err, &na) || !strings.Contains(na.Reason, "x.png is a binary change") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Apply(InvertCondition, nil); !errors.As(err, &na) || na.Reason != "the diff changes no file" {
		t.Fatalf("empty diff: %v", err)
	}
}

// TestLineRules pins the line rules on single lines of code.
func TestLineRules(t *testing.T) {
	for _, tc := range []struct {
		rule       func(string, string) (string, bool)
		path, in   string
		out        string
		applicable bool
	}{
		{invertCondition, "a.go", "\t} else if n > 0 {", "\t} else if !(n > 0) {", true},
		{invertCondition, "a.go", "\tif v, ok := m[k]; ok && v > 0 {", "\tif v, ok := m[k]; !(ok && v > 0) {", true},
		{invertCondition, "a.rs", "    if let Some(x) = y {", "", false},
		{invertCondition, "a.rs", "    while i < n {", "    while !(i < n) {", true},
		{invertCondition, "a.java", "    } else if (a.equals(b)) return;", "    } else if (!(a.equals(b))) return;", true},
		{invertCondition, "a.c", "  if x > 0 {", "", false},
		{invertCondition, "a.py", "    if x: return", "", false},
		{invertCondition, "a.go", "\tverify := true", "", false},
		{invertCondition, "a.sh", "if [ -f x ]; then", "", false},
		{shiftBound, "a.go", "\tfor i := 0; i < n; i++ {", "\tfor i := 0; i <= n; i++ {", true},
		{shiftBound, "a.go", "\treturn a >= b", "\treturn a > b", true},
		{shiftBound, "a.go", "\tx := <-ch", "", false},
		{shiftBound, "a.go", "\tx := y << 2", "", false},
		{shiftBound, "a.ts", "  const f = (a) => a", "", false},
		{shiftBound, "a.go", `	log("a < b"); if x > y {`, `	log("a < b"); if x >= y {`, true},
		{shiftBound, "a.md", "a < b", "", false},
	} {
		out, ok := tc.rule(tc.in, tc.path)
		if ok != tc.applicable || out != tc.out {
			t.Errorf("%s %q → %q, %v; want %q, %v", tc.path, tc.in, out, ok, tc.out, tc.applicable)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"a/sum_test.go": true, "test_x.py": true, "x_test.py": true, "src/a.test.ts": true, "a.spec.js": true,
		"FooTest.java": true, "a_spec.rb": true, "tests/helpers.py": true, "pkg/__tests__/a.js": true,
		"sum.go": false, "testdata/x.go": false, "latest.py": false, "contest.go": false, "Testing.java": false,
	} {
		if IsTest(p) != want {
			t.Errorf("IsTest(%q) = %v", p, !want)
		}
	}
}
