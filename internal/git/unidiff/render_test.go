package unidiff

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// textFile builds a modified file with n added lines of width w.
func textFile(path string, n, w int) File {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, path, path, path, n)
	for i := 0; i < n; i++ {
		line := fmt.Sprintf("%s line %d ", path, i)
		b.WriteString("+" + line + strings.Repeat("x", max(0, w-len(line))) + "\n")
	}
	return Parse([]byte(b.String()))[0]
}

func TestRenderWhole(t *testing.T) {
	got := Render(Parse(readTestdata(t, "mixed-binary.diff")), 100000)
	want := `6 files changed, +2 -2
M b.bin  binary file modified, 6 B
D del.txt  +0 -1
M m.sh  +0 -0, mode 100644 → 100755
R new name.txt (from ren.txt)  +0 -0
M sp ace.txt  +1 -0
M x.txt  +1 -1

diff --git a/del.txt b/del.txt
deleted file mode 100644
--- a/del.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/m.sh b/m.sh
old mode 100644
new mode 100755
diff --git a/ren.txt b/new name.txt
similarity index 100%
rename from ren.txt
rename to new name.txt
diff --git a/sp ace.txt b/sp ace.txt
--- a/sp ace.txt	
+++ b/sp ace.txt	
@@ -1 +1,2 @@
 keep
+more
diff --git a/x.txt b/x.txt
--- a/x.txt
+++ b/x.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRenderEmpty(t *testing.T) {
	for _, budget := range []int{0, 100, 10000} {
		if got := Render(nil, budget); got != "" {
			t.Errorf("Render(nil, %d) = %q", budget, got)
		}
		if got := Render(Parse(nil), budget); got != "" {
			t.Errorf("Render(Parse(nil), %d) = %q", budget, got)
		}
	}
}

// bodyOf returns the rendered body of path: from its diff --git line to the
// next one.
func bodyOf(out, path string) string {
	start := strings.Index(out, "diff --git a/"+path+" ")
	if start < 0 {
		return ""
	}
	rest := out[start+1:]
	end := strings.Index(rest, "\ndiff --git ")
	if end < 0 {
		return out[start:]
	}
	return out[start : start+1+end+1]
}

// addedLines counts a rendered body's "+" lines, not its "+++" header.
func addedLines(body string) int {
	return strings.Count(body, "\n+") - strings.Count(body, "\n+++ ")
}

func TestRenderSharesFairly(t *testing.T) {
	small := textFile("small.go", 3, 20)
	big1 := textFile("big1.go", 400, 60)
	big2 := textFile("big2.go", 400, 60)
	tiny := textFile("tiny.go", 1, 10)
	files := []File{big1, small, big2, tiny}
	const budget = 6000
	out := Render(files, budget)
	if len(out) > budget {
		t.Fatalf("output %d bytes > budget %d", len(out), budget)
	}
	for _, whole := range []File{small, tiny} {
		b := bodyOf(out, whole.Path())
		if strings.Contains(b, "omitted") || addedLines(b) != whole.Added {
			t.Errorf("%s not shown whole:\n%s", whole.Path(), b)
		}
	}
	b1, b2 := bodyOf(out, "big1.go"), bodyOf(out, "big2.go")
	for _, b := range []string{b1, b2} {
		if !strings.Contains(b, "more lines of big") || !strings.HasSuffix(b, "omitted\n") {
			t.Errorf("big file not cut with an omission line:\n%s", b)
		}
		if addedLines(b) < 20 {
			t.Errorf("big file got too little of the budget (%d lines):\n%s", addedLines(b), b)
		}
	}
	// Equal sizes, equal shares: the two cuts differ by at most a line.
	if d := len(b1) - len(b2); d > 70 || d < -70 {
		t.Errorf("unfair cut: big1 %d bytes, big2 %d bytes", len(b1), len(b2))
	}
	// Whatever was cut is still listed with its counts.
	for _, line := range []string{"M big1.go  +400 -0, diff cut\n", "M big2.go  +400 -0, diff cut\n", "M small.go  +3 -0\n", "4 files changed, +804 -0\n"} {
		if !strings.Contains(out, line) {
			t.Errorf("list lacks %q:\n%s", line, out)
		}
	}
	// The omission count matches what was dropped.
	shown := addedLines(b1)
	if !strings.Contains(b1, fmt.Sprintf("… %d more lines of big1.go omitted", 400-shown)) {
		t.Errorf("omission count wrong for %d shown lines:\n%s", shown, b1)
	}
}

func TestRenderStaysWithinBudget(t *testing.T) {
	files := []File{
		textFile("a.go", 50, 40), textFile("b.go", 5, 10), textFile("c.go", 900, 80),
		NewFile("new dir/n\nx.txt", "100644", []byte(strings.Repeat("untracked\n", 300)), 3000),
		NewFile("img.png", "100644", []byte("\x89PNG\x00\x00"), 12345),
		textFile("go.sum", 100, 50),
	}
	files = append(files, Parse(readTestdata(t, "mixed-binary.diff"))...)
	prev := -1
	for budget := minBudget; budget <= 120000; budget += 997 {
		out := Render(files, budget)
		if len(out) > budget {
			t.Fatalf("budget %d: output is %d bytes", budget, len(out))
		}
		if !utf8.ValidString(out) {
			t.Fatalf("budget %d: invalid UTF-8", budget)
		}
		if !strings.HasPrefix(out, "12 files changed, +1357 -2\n") {
			t.Fatalf("budget %d: summary missing:\n%s", budget, out)
		}
		if n := strings.Count(out, "\n"); n < prev {
			t.Errorf("budget %d shows fewer lines (%d) than a smaller budget (%d)", budget, n, prev)
		} else {
			prev = n
		}
		if out != Render(files, budget) {
			t.Fatalf("budget %d: output not deterministic", budget)
		}
	}
	out := Render(files, 1<<20)
	for _, want := range []string{
		"A img.png  binary file added, 12 KB, untracked\n",
		"M go.sum  +100 -0, generated file, diff omitted\n",
		"A \"new dir/n\\nx.txt\"  +300 -0, untracked\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "PNG") || strings.Contains(out, "go.sum line") {
		t.Errorf("binary or generated body dumped:\n%s", out)
	}
}

func TestRenderTinyBudgetKeepsSummary(t *testing.T) {
	files := []File{textFile("a.go", 50, 40)}
	for _, budget := range []int{-5, 0, 10, minBudget - 1} {
		if got := Render(files, budget); got != "1 file changed, +50 -0\n" {
			t.Errorf("Render(…, %d) = %q", budget, got)
		}
	}
}

func TestRenderHostileLines(t *testing.T) {
	huge := strings.Repeat("é", 300000) // 600 KB on one line, two bytes a rune
	in := "diff --git a/m.js b/m.js\n--- a/m.js\n+++ b/m.js\n@@ -1,2 +1,2 @@\n-" + huge + "\n+x\x00y\xffz\n ctx\n"
	out := Render(Parse([]byte(in)), 20000)
	if !utf8.ValidString(out) {
		t.Fatal("invalid UTF-8 in output")
	}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > MaxLineBytes {
			t.Errorf("line of %d bytes > %d", len(l), MaxLineBytes)
		}
	}
	if !strings.Contains(out, "more bytes)") {
		t.Errorf("huge line not marked as cut:\n%.300s", out)
	}
	if !strings.Contains(out, "+x\u2400y\uFFFDz\n") {
		t.Errorf("NUL or invalid byte not made visible:\n%s", out[len(out)-200:])
	}
	if strings.Contains(out, "\x00") {
		t.Error("NUL byte in output")
	}
}

func TestRenderManyFilesCapsTheList(t *testing.T) {
	var files []File
	for i := 0; i < 5000; i++ {
		files = append(files, textFile(fmt.Sprintf("pkg/f%04d.go", i), 2, 10))
	}
	const budget = 20000
	out := Render(files, budget)
	if len(out) > budget {
		t.Fatalf("output %d > budget", len(out))
	}
	if !strings.Contains(out, "more files (+") || !strings.Contains(out, "not listed\n") {
		t.Errorf("no count of unlisted files:\n%.500s", out)
	}
	if strings.Contains(out, "diff --git a/pkg/f4999.go") {
		t.Error("body of an unlisted file rendered")
	}
	if !strings.Contains(out, "diff --git a/pkg/f0000.go") {
		t.Error("first file's body missing although there was room")
	}
}

func TestRenderHeaderOnlyWhenNoRoomForBodies(t *testing.T) {
	// Two files whose headers alone exceed the body budget: listed, no body.
	long := strings.Repeat("d/", 150) + "f.go"
	files := []File{textFile(long+"1", 10, 10), textFile(long+"2", 10, 10)}
	out := Render(files, 1500)
	if len(out) > 1500 {
		t.Fatalf("output %d > 1500", len(out))
	}
	if strings.Count(out, ", diff omitted for space\n") != 2 || strings.Contains(out, "diff --git") {
		t.Errorf("expected both files marked cut:\n%s", out)
	}
}

func TestWaterFill(t *testing.T) {
	for _, tc := range []struct {
		sizes  []int
		budget int
		want   []int
	}{
		{nil, 10, []int{}},
		{[]int{5, 5}, 100, []int{5, 5}},
		{[]int{100, 10, 100}, 110, []int{50, 10, 50}},
		{[]int{100, 10, 100}, 60, []int{25, 10, 25}},
		{[]int{30, 30, 30}, 30, []int{10, 10, 10}},
		{[]int{0, 50}, 20, []int{0, 20}},
		{[]int{7}, -1, []int{0}},
	} {
		got := waterFill(tc.sizes, tc.budget)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("waterFill(%v, %d) = %v, want %v", tc.sizes, tc.budget, got, tc.want)
		}
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 12345: "12 KB", 5 << 20: "5.0 MB", 300 << 20: "300 MB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRenderSummaries(t *testing.T) {
	files := []File{
		Summary("data.csv", "data.csv", Modified, 250000, 3, 48<<20, false),
		Summary("", "package-lock.json", Added, 9000, 0, -1, true),
		Summary("old/big.sql", "", Deleted, 0, 70000, -1, false),
	}
	out := Render(files, 10000)
	want := "3 files changed, +259000 -70003\n" +
		"M data.csv  +250000 -3, large change, diff omitted, 48 MB\n" +
		"A package-lock.json  +9000 -0, generated file, diff omitted\n" +
		"D old/big.sql  +0 -70000, large change, diff omitted\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
