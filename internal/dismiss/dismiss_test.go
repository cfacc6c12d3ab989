package dismiss

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

const code = `package calc

// Div divides.
func Div(a, b int) int {
	return a / b
}
`

func TestFingerprint(t *testing.T) {
	base := severity.Finding{Severity: "major", Criterion: "safety", File: "a.go", Line: 5, Message: "Division by zero on line 5.", Judge: "standard"}
	lines := strings.Split(code, "\n")
	fp := Fingerprint(base, ContextOf(lines, 5))
	moved := strings.Split("package calc\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"+code[len("package calc\n"):], "\n")
	same := []struct {
		name  string
		f     severity.Finding
		lines []string
		line  int
	}{
		{"moved down, other judge, reworded", severity.Finding{Severity: "major", Criterion: "safety", File: "a.go", Line: 9, Message: "b may be 0", Judge: "adversarial"}, moved, 9},
		{"another severity, criterion in capitals", severity.Finding{Severity: "critical", Criterion: "Safety", File: "a.go", Line: 5}, lines, 5},
		{"re-indented", base, strings.Split(strings.ReplaceAll(code, "\t", "    "), "\n"), 5},
		{"a blank line inserted", base, strings.Split(strings.Replace(code, "\treturn", "\n\treturn", 1), "\n"), 6},
	}
	for _, tc := range same {
		if got := Fingerprint(tc.f, ContextOf(tc.lines, tc.line)); got != fp {
			t.Errorf("%s: %s, want %s", tc.name, got, fp)
		}
	}
	edited := strings.Split(strings.Replace(code, "a / b", "a / (b + 1)", 1), "\n")
	neighbour := strings.Split(strings.Replace(code, "func Div(a, b int) int {", "func Div(a, b int64) int {", 1), "\n")
	differ := []struct {
		name  string
		f     severity.Finding
		lines []string
	}{
		{"the cited line edited", base, edited},
		{"a neighbouring line edited", base, neighbour},
		{"another file", severity.Finding{Severity: "major", Criterion: "safety", File: "b.go", Line: 5}, lines},
		{"another criterion", severity.Finding{Severity: "major", Criterion: "clarity", File: "a.go", Line: 5}, lines},
	}
	for _, tc := range differ {
		if got := Fingerprint(tc.f, ContextOf(tc.lines, 5)); got == fp {
			t.Errorf("%s: same fingerprint %s", tc.name, got)
		}
	}
	noLine := severity.Finding{Severity: "minor", Message: "No tests for Div (3 cases)."}
	if Fingerprint(noLine, "") != Fingerprint(severity.Finding{Severity: "minor", Message: "no tests for div (4 cases)"}, "") {
		t.Error("a file-less finding's fingerprint depends on digits or case")
	}
	if Fingerprint(noLine, "") == Fingerprint(severity.Finding{Severity: "minor", Message: "no docs"}, "") {
		t.Error("file-less findings with different messages share a fingerprint")
	}
	if !strings.HasPrefix(fp, Version+":") || len(fp) != len(Version)+1+32 {
		t.Errorf("fingerprint %q", fp)
	}
}

func TestContext(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\n  two\n\nthree\nfour\nfive\nsix"), 0o644)
	cases := []struct {
		file string
		line int
		want string
	}{
		{"a.go", 1, ">one\ntwo"},
		{"a.go", 4, "two\n>three\nfour"},
		{"a.go", 7, "five\n>six"},
		{"a.go", 3, "two\n>\nthree"},
		{"a.go", 8, ""}, {"a.go", 0, ""}, {"missing.go", 1, ""}, {"../a.go", 1, ""}, {"/etc/passwd", 1, ""},
	}
	for _, tc := range cases {
		if got := Context(dir, tc.file, tc.line); got != tc.want {
			t.Errorf("Context(%q, %d) = %q, want %q", tc.file, tc.line, got, tc.want)
		}
	}
	if CitedLine(dir, "a.go", 2) != "  two" || CitedLine(dir, "a.go", 9) != "" {
		t.Error("CitedLine")
	}
}

func TestParseInline(t *testing.T) {
	cases := []struct {
		line, topic, reason string
		ok, bad             bool
	}{
		{"x := 1", "", "", false, false},
		{"\t// tribunal: dismiss safety — b is never zero here", "safety", "b is never zero here", true, false},
		{"# tribunal: dismiss Correctness -- checked by the caller", "Correctness", "checked by the caller", true, false},
		{"/* tribunal: dismiss major: generated code */", "major", "generated code", true, false},
		{"<!-- tribunal: dismiss test-coverage — covered upstream -->", "test-coverage", "covered upstream", true, false},
		{"return a / b // tribunal: dismiss safety--callers check b", "safety", "callers check b", true, false},
		{"// tribunal: dismiss safety", "safety", "", true, true},
		{"// tribunal: dismiss safety —   ", "safety", "", true, true},
		{"// tribunal: dismiss — no topic", "", "", true, true},
		{"// tribunal: dismiss safety because", "safety", "", true, true},
	}
	for _, tc := range cases {
		topic, reason, ok, err := ParseInline(tc.line)
		if ok != tc.ok || (err != nil) != tc.bad || topic != tc.topic || reason != tc.reason {
			t.Errorf("ParseInline(%q) = %q, %q, %v, %v", tc.line, topic, reason, ok, err)
		}
	}
}

func TestSetMatch(t *testing.T) {
	dir := t.TempDir()
	src := "package calc\n\n// tribunal: dismiss safety — b is checked by every caller\nfunc Div(a, b int) int {\n\treturn a / b\n}\n\n// tribunal: dismiss clarity\nfunc Mul(a, b int) int { return a * b }\n"
	os.WriteFile(filepath.Join(dir, "calc.go"), []byte(src), 0o644)
	div := severity.Finding{Severity: "major", Criterion: "safety", File: "calc.go", Line: 5, Message: "division by zero"}
	other := severity.Finding{Severity: "major", Criterion: "clarity", File: "calc.go", Line: 5, Message: "terse"}
	mul := severity.Finding{Severity: "minor", Criterion: "clarity", File: "calc.go", Line: 9, Message: "name"}
	far := severity.Finding{Severity: "minor", Criterion: "safety", File: "calc.go", Line: 9, Message: "overflow"}
	listed := severity.Finding{Severity: "minor", File: "calc.go", Line: 9, Message: "overflow"}

	shared := filepath.Join(dir, "dismissed")
	os.WriteFile(shared, []byte("# by Ann <ann@x> at 2026-12-04T10:00:00Z\n"+Of(dir, listed)+" wraps by design\n"), 0o644)
	s, err := Load(Sources{Shared: shared, Personal: filepath.Join(dir, "none.json")})
	if err != nil {
		t.Fatal(err)
	}
	kept, fps, hits := s.Filter(dir, []severity.Finding{div, other, mul, far, listed})
	if len(kept) != 3 || kept[0] != other || kept[1] != mul || kept[2] != far || len(fps) != 3 {
		t.Fatalf("kept %v", kept)
	}
	if len(hits) != 2 || hits[0].Entry.Scope != InCode || hits[0].Entry.Reason != "b is checked by every caller" || hits[0].Entry.Line != 3 {
		t.Fatalf("inline hit %+v", hits)
	}
	if e := hits[1].Entry; e.Scope != Shared || e.Reason != "wraps by design" || e.By != "Ann <ann@x>" || e.At != "2026-12-04T10:00:00Z" {
		t.Fatalf("shared hit %+v", e)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "calc.go:8") || !strings.Contains(s.Problems[0], "no reason") {
		t.Fatalf("problems %v", s.Problems)
	}
}

func TestPersonalAndShared(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "dismissals.json")
	es := []Entry{{Fingerprint: "tf2:a", Reason: "r1", By: "me"}, {Fingerprint: "tf2:b", Reason: "r2"}}
	if err := WritePersonal(p, es); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPersonal(p)
	if err != nil || len(got) != 2 || got[0].Scope != Personal || got[1].Reason != "r2" {
		t.Fatalf("read back %+v %v", got, err)
	}
	if left := Without(got, "tf2:a"); len(left) != 1 || left[0].Fingerprint != "tf2:b" {
		t.Fatalf("without %+v", left)
	}
	os.WriteFile(p, []byte("{broken"), 0o600)
	if _, err := ReadPersonal(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("a damaged list reads as %v", err)
	}
	a := Entry{Fingerprint: "tf2:a", Reason: "first\nsecond", By: "Ann", At: "T", File: "dir/a b.go", Line: 7, Topic: "safety", Message: "nil\nmap"}
	text := "# team dismissals\n" + SharedLines(a) + "tf2:b other\n" + SharedLines(Entry{Fingerprint: "tf2:c", Reason: "r", Message: "no tests"})
	e := ParseShared(text)
	if len(e) != 3 || e[0].Reason != "first second" || e[0].By != "Ann" || e[0].File != "dir/a_b.go" || e[0].Line != 7 || e[0].Topic != "safety" || e[0].Message != "nil map" {
		t.Fatalf("parsed %+v", e)
	}
	if e[1].By != "" || e[1].File != "" || e[2].File != "" || e[2].Topic != "" || e[2].Message != "no tests" {
		t.Fatalf("parsed %+v", e[1:])
	}
	text = strings.TrimSuffix(text, SharedLines(Entry{Fingerprint: "tf2:c", Reason: "r", Message: "no tests"}))
	out, removed := RemoveShared(text, "tf2:a")
	if !removed || out != "# team dismissals\ntf2:b other\n" {
		t.Fatalf("removed %v: %q", removed, out)
	}
	if _, removed := RemoveShared(out, "tf2:zzz"); removed {
		t.Fatal("removed a line that is not there")
	}
}

func TestSuppressions(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := LogSuppressions(p, []Suppression{{Fingerprint: "a", At: "1"}, {Fingerprint: "a", At: "3"}, {Fingerprint: "b", At: "2"}}); err != nil {
		t.Fatal(err)
	}
	LogSuppressions(p, []Suppression{{Fingerprint: "a", At: "2"}})
	n, last, err := CountSuppressions(p)
	if err != nil || n["a"] != 3 || n["b"] != 1 || last["a"] != "3" {
		t.Fatalf("counts %v %v %v", n, last, err)
	}
}

// TestUpdatePersonalConcurrent: commands changing the list at once each
// keep their change (the list is read and written under its lock).
func TestUpdatePersonalConcurrent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d", "dismissals.json")
	const n = 12
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- UpdatePersonal(p, func(es []Entry) ([]Entry, error) {
				return append(es, Entry{Fingerprint: fmt.Sprintf("tf2:%02d", i), Reason: "r"}), nil
			})
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	es, err := ReadPersonal(p)
	if err != nil || len(es) != n {
		t.Fatalf("%d entries after %d concurrent additions (%v)", len(es), n, err)
	}
	if err := UpdatePersonal(p, func([]Entry) ([]Entry, error) { return nil, ErrUnchanged }); err != nil {
		t.Fatal(err)
	}
	if es, _ := ReadPersonal(p); len(es) != n {
		t.Fatal("ErrUnchanged wrote the list")
	}
}

// TestMentioned: a judge shown material is told of the entries on a file
// the material names and of those on no file, at most max; a nil or empty
// set tells nothing.
func TestMentioned(t *testing.T) {
	s := New()
	s.Add(Entry{Fingerprint: "a", File: "calc.go", Line: 3, Topic: "safety", Message: "div", Reason: "checked"},
		Entry{Fingerprint: "b", File: "other.go", Line: 1, Topic: "clarity", Message: "name", Reason: "fine"},
		Entry{Fingerprint: "c", Topic: "tests", Message: "no tests for docs", Reason: "docs only"})
	diff := "diff --git a/calc.go b/calc.go\n+x\n"
	got := s.Mentioned(10, diff, " calc.go | 1 +")
	if len(got) != 2 || got[0].Fingerprint != "a" || got[1].Fingerprint != "c" {
		t.Fatalf("Mentioned = %+v, want calc.go's entry then the fileless one", got)
	}
	if got := s.Mentioned(1, diff); len(got) != 1 || got[0].Fingerprint != "a" {
		t.Fatalf("Mentioned(max 1) = %+v", got)
	}
	var none *Set
	if none.Mentioned(10, diff) != nil || New().Mentioned(10, diff) != nil {
		t.Fatal("an empty set tells something")
	}
}
