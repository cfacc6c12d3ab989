package calibrate

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestReadCases(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"a","task":"t","diff":"d","label":"accept"}`,
		``,
		`# a comment`,
		`{"id":"b","task":"t","diff":"d","label":"reject","notes":"n","files":{"x/y.go":"package y"}}`,
		`[1,2]`,
		`{"id":"c","task":"","diff":"d","label":"accept"}`,
		`{"id":"a","task":"t","diff":"d","label":"accept"}`,
		`{"id":"d","task":"t","diff":"d","label":"accept","files":{"../escape":"x"}}`,
		`{"id":"e","task":"t","diff":"d","label":"accept"} {"id":"f"}`,
		`{"id":"g","task":"t","diff":"d","label":"accept","extra":"kept quietly"}`,
	}, "\n")
	var skips []string
	cases, err := ReadCases(strings.NewReader(in), func(line int, why string) {
		skips = append(skips, strings.Join([]string{strconv.Itoa(line), why}, ": "))
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cases {
		ids = append(ids, c.ID+"@"+strconv.Itoa(c.Line))
	}
	if got := strings.Join(ids, " "); got != "a@1 b@4 g@10" {
		t.Errorf("cases = %s", got)
	}
	want := []string{"5: not a case object", "6: missing task", `7: id "a" repeats the case on line 1`, `8: file path "../escape"`, "9: more than one JSON value"}
	if len(skips) != len(want) {
		t.Fatalf("skips = %q", skips)
	}
	for i, w := range want {
		if !strings.HasPrefix(skips[i], w) {
			t.Errorf("skip %d = %q, want prefix %q", i, skips[i], w)
		}
	}
}

func TestReadCasesBadLabelNamesTheCase(t *testing.T) {
	in := `{"id":"ok","task":"t","diff":"d","label":"accept"}` + "\n" + `{"id":"bad one","task":"t","diff":"d","label":"Accept"}`
	_, err := ReadCases(strings.NewReader(in), func(int, string) {})
	var le *LabelError
	if !errors.As(err, &le) || le.ID != "bad one" || le.Line != 2 {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), `case "bad one" (line 2) has label "Accept"`) {
		t.Errorf("message = %q", err)
	}
	// A missing label is a bad label too: the case is named.
	_, err = ReadCases(strings.NewReader(`{"id":"nolabel","task":"t","diff":"d"}`), func(int, string) {})
	if !errors.As(err, &le) || le.ID != "nolabel" {
		t.Fatalf("err = %v", err)
	}
}

func TestSafePath(t *testing.T) {
	for p, want := range map[string]bool{
		"a.go": true, "dir/a.go": true, "": false, "/etc/passwd": false, "../x": false, "a/../../x": false,
		"./a": false, "a//b": false, ".git/config": false, ".git": false, `a\b`: false, ".gitignore": true,
	} {
		if got := safePath(p); got != want {
			t.Errorf("safePath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestProgressBarAndLines(t *testing.T) {
	var bars, lines []string
	p := newProgress(func(l string) { lines = append(lines, l) }, func(b string) { bars = append(bars, b) }, 4)
	p.step("a", false, outcome{Judgement: Judgement{Decision: "pass"}, cached: true, done: true})
	p.step("b", false, outcome{Judgement: Judgement{Decision: "failed", Error: "boom"}, done: true})
	want := []string{
		"calibrating [" + strings.Repeat("░", 30) + "] 0/4 · 0 cached · 0 failed",
		"calibrating [" + strings.Repeat("█", 7) + strings.Repeat("░", 23) + "] 1/4 · 1 cached · 0 failed",
		"calibrating [" + strings.Repeat("█", 15) + strings.Repeat("░", 15) + "] 2/4 · 1 cached · 1 failed",
	}
	if !slices.Equal(bars, want) || len(lines) != 0 {
		t.Errorf("terminal progress: bars %q, lines %q; want bars %q and no lines", bars, lines, want)
	}
	bars, lines = nil, nil
	p = newProgress(func(l string) { lines = append(lines, l) }, nil, 2)
	score := 0.42
	p.step("a", true, outcome{Judgement: Judgement{Decision: "fail", Score: &score}, done: true})
	if want := []string{`[1/2] case "a" swapped: fail (score 0.42)`}; !slices.Equal(lines, want) || len(bars) != 0 {
		t.Errorf("log progress: lines %q, bars %q; want lines %q", lines, bars, want)
	}
}

func TestCacheKeyCoversCaseAndConfiguration(t *testing.T) {
	c := Case{ID: "x", Task: "t", Diff: "d", Files: map[string]string{"a": "1"}}
	base := cacheKey("fp", c)
	c2 := c
	c2.Files = map[string]string{"a": "2"}
	c3 := c
	c3.Diff = "d2"
	c4 := c
	c4.Notes = "notes are never shown to a judge"
	c4.ID = "renamed"
	for name, k := range map[string]string{
		"fingerprint": cacheKey("fp2", c),
		"files":       cacheKey("fp", c2),
		"diff":        cacheKey("fp", c3),
	} {
		if k == base {
			t.Errorf("key ignores the %s", name)
		}
	}
	if cacheKey("fp", c4) != base {
		t.Error("key depends on the id or notes, which no judge sees")
	}
}

func TestCaseFiles(t *testing.T) {
	git := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/b.txt b/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+z\n"
	plain := "--- a/a.txt\t2026-01-01\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+z\n"
	for name, diff := range map[string]string{"git": git, "plain": plain} {
		files, err := caseFiles(diff, false)
		if err != nil || len(files) != 2 || files[0].Path() != "a.txt" || files[1].Path() != "b.txt" {
			t.Fatalf("%s: files %v, %v", name, files, err)
		}
		if files[1].Added != 1 || files[0].Deleted != 1 {
			t.Errorf("%s: counts %+v", name, files)
		}
		swapped, _ := caseFiles(diff, true)
		if swapped[0].Path() != "b.txt" || swapped[1].Path() != "a.txt" {
			t.Errorf("%s: swapped order %s, %s", name, swapped[0].Path(), swapped[1].Path())
		}
	}
	if _, err := caseFiles("just words\n", false); err == nil {
		t.Error("a diff without files was accepted")
	}
}
