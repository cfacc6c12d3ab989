package calibrate

import (
	"bytes"
	"errors"
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
	var term bytes.Buffer
	p := newProgress(&term, true, 4)
	p.step("a", false, outcome{Judgement: Judgement{Decision: "pass"}, cached: true, done: true})
	p.step("b", false, outcome{Judgement: Judgement{Decision: "failed", Error: "boom"}, done: true})
	p.finish()
	out := term.String()
	if !strings.Contains(out, "\rtribunal: calibrating ["+strings.Repeat("█", 15)+strings.Repeat("░", 15)+"] 2/4 · 1 cached · 1 failed") || !strings.HasSuffix(out, "\n") {
		t.Errorf("terminal progress = %q", out)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("a terminal bar redraws one line; got %q", out)
	}
	var log bytes.Buffer
	p = newProgress(&log, false, 2)
	score := 0.42
	p.step("a", true, outcome{Judgement: Judgement{Decision: "fail", Score: &score}, done: true})
	p.finish()
	if got := log.String(); got != "tribunal: [1/2] case \"a\" swapped: fail (score 0.42)\n" {
		t.Errorf("log progress = %q", got)
	}
}

func TestCacheKeyCoversCaseAndConfiguration(t *testing.T) {
	c := Case{ID: "x", Task: "t", Diff: "d", Files: map[string]string{"a": "1"}}
	base := cacheKey("fp", c, "d")
	c2 := c
	c2.Files = map[string]string{"a": "2"}
	c3 := c
	c3.Notes = "notes are never shown to a judge"
	c3.ID = "renamed"
	for name, k := range map[string]string{
		"fingerprint": cacheKey("fp2", c, "d"),
		"files":       cacheKey("fp", c2, "d"),
		"shown diff":  cacheKey("fp", c, "d2"),
	} {
		if k == base {
			t.Errorf("key ignores the %s", name)
		}
	}
	if cacheKey("fp", c3, "d") != base {
		t.Error("key depends on the id or notes, which no judge sees")
	}
}

func TestShownDiff(t *testing.T) {
	plain := "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	if got, err := shownDiff(plain, false, 1000); err != nil || got != plain {
		t.Errorf("plain diff shown as %q, %v", got, err)
	}
	if _, err := shownDiff(plain, true, 1000); err == nil {
		t.Error("a diff without git headers cannot be swapped")
	}
	if got, _ := shownDiff(plain, false, 10); got != plain[len(plain)-10:] {
		t.Errorf("plain diff not bounded: %q", got)
	}
}
