package output

import (
	"bytes"
	"testing"
	"time"
)

// TestHookPrefixes pins every line a hook binary can print on stderr,
// prefix and all.
func TestHookPrefixes(t *testing.T) {
	var b bytes.Buffer
	h := Hook{W: &b, Name: "stop-gate"}
	h.Warnf("no advisory verdict: %v", "boom\nsecond line")
	h.JudgeWarnf("cannot mint ids: %s", "x")
	h.Errorf("usage: stop-gate %s [%s] JOB", "judge", "--locked")
	h.Warning("config.json: unknown key \"foo\"\x1b[2J")
	want := "tribunal: stop-gate: no advisory verdict: boom second line\n" +
		"tribunal: stop-gate judge: cannot mint ids: x\n" +
		"tribunal: stop-gate: error: usage: stop-gate judge [--locked] JOB\n" +
		"tribunal: warning: config.json: unknown key \"foo\" [2J\n"
	if b.String() != want {
		t.Errorf("stderr:\n%q\nwant:\n%q", b.String(), want)
	}
}

// TestSessionPrefixes pins the words around every kind of line
// tribunal-session prints on stderr.
func TestSessionPrefixes(t *testing.T) {
	var b bytes.Buffer
	s := Session{W: &b}
	s.Errorf("run: %v", "boom\nsecond line")
	s.Hint("pass %s", "--in-place")
	s.Warning("config.json: unknown key \"foo\"")
	s.Progress("[0:05] iteration 1/3: actor working")
	s.Item("a.go  (both modified)")
	s.Relay("tribunal-gate: unknown policy democracy, falling back to majority")
	s.StillBusy(5 * time.Second)
	want := "tribunal: error: run: boom second line\n" +
		"tribunal: hint: pass --in-place\n" +
		"tribunal: warning: config.json: unknown key \"foo\"\n" +
		"tribunal: [0:05] iteration 1/3: actor working\n" +
		"tribunal:   a.go (both modified)\n" +
		"tribunal-gate: unknown policy democracy, falling back to majority\n" +
		"tribunal: error: interrupted, and still busy 5s later; exiting now\n"
	if b.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestBarRedrawsInPlace: the calibrate bar overwrites itself and ends its
// line once, and only if it was drawn.
func TestBarRedrawsInPlace(t *testing.T) {
	var b bytes.Buffer
	bar := &Bar{W: &b}
	bar.End()
	if b.Len() != 0 {
		t.Fatalf("an undrawn bar printed %q", b.String())
	}
	bar.Draw("calibrating [░░] 0/2")
	bar.Draw("calibrating [█░] 1/2")
	bar.End()
	if want := "\rtribunal: calibrating [░░] 0/2\rtribunal: calibrating [█░] 1/2\n"; b.String() != want {
		t.Errorf("bar = %q, want %q", b.String(), want)
	}
}

func TestBarClear(t *testing.T) {
	var b bytes.Buffer
	bar := &Bar{W: &b}
	bar.Clear() // nothing drawn: nothing to erase
	bar.Draw("1/2")
	bar.Clear()
	bar.Clear()
	bar.End() // cleared: no newline owed
	if got := b.String(); got != "\rtribunal: 1/2\r\033[K" {
		t.Fatalf("%q", got)
	}
}

func TestMissingProgram(t *testing.T) {
	for _, tt := range []struct{ dir, want string }{
		{"/opt/tribunal/bin", "tribunal: error: mcp: tribunal-mcp is not installed in /opt/tribunal/bin\n" +
			"tribunal: hint: reinstall tribunal (make install) so that all its programs are in one directory\n"},
		{"", "tribunal: error: mcp: tribunal-mcp is not installed beside this program (its path is unknown)\n" +
			"tribunal: hint: reinstall tribunal (make install) so that all its programs are in one directory\n"},
	} {
		var b bytes.Buffer
		Session{W: &b}.MissingProgram("mcp", "tribunal-mcp", tt.dir)
		if b.String() != tt.want {
			t.Errorf("MissingProgram(%q) = %q, want %q", tt.dir, b.String(), tt.want)
		}
	}
}
