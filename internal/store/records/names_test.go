package records

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	cases := map[string]bool{
		"01HZ0000000000000000000001":  true,
		"7ZZZZZZZZZZZZZZZZZZZZZZZZZ":  true,
		"0123456789ABCDEFGHJKMNPQRS":  true,
		"8ZZZZZZZZZZZZZZZZZZZZZZZZZ":  false, // overflows 128 bits
		"01hz0000000000000000000001":  false, // lower case
		"01HZ000000000000000000000":   false,
		"01HZ00000000000000000000001": false,
		"01HZ000000000000000000000I":  false,
		"01HZ000000000000000000000L":  false,
		"01HZ000000000000000000000O":  false,
		"01HZ000000000000000000000U":  false,
		"01HZ00000000000000000000/.":  false,
		"../../etc/passwd":            false,
		"":                            false,
	}
	for id, want := range cases {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

// The stop file and the judgements directory of a session stay inside the
// project directory, whatever the session id holds, and share their name.
func TestStopPaths(t *testing.T) {
	dir := filepath.Join("onlooker", "tribunal", "k")
	for _, sid := range []string{"", "abc-123", "../../x", "a/b c", strings.Repeat("z", 300), "é"} {
		p := StopPath(dir, sid)
		if filepath.Dir(p) != dir {
			t.Errorf("StopPath(%q) = %q escapes %q", sid, p, dir)
		}
		if filepath.Base(p) != StopFileName(sid) {
			t.Errorf("StopPath(%q) = %q, StopFileName %q", sid, p, StopFileName(sid))
		}
		if d := JudgementsDir(dir, sid); d+JSONExt != p {
			t.Errorf("JudgementsDir(%q) = %q, stop file %q", sid, d, p)
		}
	}
	if got := StopFileName("a/b c"); got != "stop-a_b_c_0af99a6091695385.json" {
		t.Errorf("StopFileName = %q", got)
	}
}

func TestIsStopFileName(t *testing.T) {
	cases := map[string]bool{
		"stop-abc.json":        true,
		"stop-a_b_c.json":      true,
		"stop-.json":           false, // no session
		"stop-abc.json.tmp":    false,
		".stop-abc.json.tmp-1": false, // an atomic write in progress
		"stopx.json":           false,
		"manifest.json":        false,
		"stop-abc":             false, // the judgements directory
	}
	for name, want := range cases {
		if got := IsStopFileName(name); got != want {
			t.Errorf("IsStopFileName(%q) = %v, want %v", name, got, want)
		}
	}
	if !IsJudgementPath(filepath.Join("p", "stop-abc", "01HZ0000000000000000000001.json")) ||
		IsJudgementPath(filepath.Join("p", "stop-abc.json")) {
		t.Error("IsJudgementPath tells a judgement record from a stop file")
	}
}

func TestIterationPaths(t *testing.T) {
	it := IterationDir("01HZ0000000000000000000002")
	for got, want := range map[string]string{
		it:                                "iteration-01HZ0000000000000000000002",
		VerdictPath(it, "J"):              filepath.Join(it, "verdicts", "J.json"),
		RepPath(it, "J", 2):               filepath.Join(it, "verdicts", "J.reps", "2.json"),
		CommandVerdictPath(it, "tests"):   filepath.Join(it, "verdicts", "command-tests.json"),
		CallPath(it, 3, "judge-standard"): filepath.Join(it, "calls", "03-judge-standard.json"),
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
