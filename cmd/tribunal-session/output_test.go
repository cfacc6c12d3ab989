package main

import (
	"bytes"
	"testing"
	"time"
)

// TestOutputPrefixes pins the words around every kind of line this binary
// prints on stderr: packages under internal/ hand over plain text through
// these methods.
func TestOutputPrefixes(t *testing.T) {
	var b bytes.Buffer
	c := &cli{stderr: &b}
	c.errorf("run: %v", "boom\nsecond line")
	c.hint("pass %s", "--in-place")
	c.warnf("branch %s not removed", "tribunal/x")
	c.warning("config.json: unknown key \"foo\"")
	c.progressf("task %s started in the background", "01J")
	c.progress("[0:05] iteration 1/3: actor working")
	c.item("a.go  (both modified)")
	c.relay("tribunal-gate: unknown policy democracy, falling back to majority")
	c.line("as it is")
	stillBusy(&b, 5*time.Second)
	want := "tribunal: error: run: boom second line\n" +
		"tribunal: hint: pass --in-place\n" +
		"tribunal: warning: branch tribunal/x not removed\n" +
		"tribunal: warning: config.json: unknown key \"foo\"\n" +
		"tribunal: task 01J started in the background\n" +
		"tribunal: [0:05] iteration 1/3: actor working\n" +
		"tribunal:   a.go (both modified)\n" +
		"tribunal-gate: unknown policy democracy, falling back to majority\n" +
		"as it is\n" +
		"tribunal: error: interrupted, and still busy 5s later; exiting now\n"
	if b.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestProgressBarRedrawsInPlace: the calibrate bar overwrites itself and
// ends its line once, and only if it was drawn.
func TestProgressBarRedrawsInPlace(t *testing.T) {
	var b bytes.Buffer
	bar := &progressBar{w: &b}
	bar.end()
	if b.Len() != 0 {
		t.Fatalf("an undrawn bar printed %q", b.String())
	}
	bar.draw("calibrating [░░] 0/2")
	bar.draw("calibrating [█░] 1/2")
	bar.end()
	if want := "\rtribunal: calibrating [░░] 0/2\rtribunal: calibrating [█░] 1/2\n"; b.String() != want {
		t.Errorf("bar = %q, want %q", b.String(), want)
	}
}
