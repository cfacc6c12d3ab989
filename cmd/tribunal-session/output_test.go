package main

import (
	"bytes"
	"testing"
)

// TestOutputBindings: each of this binary's diagnostic methods prints the
// kind of line its name says (internal/output words them).
func TestOutputBindings(t *testing.T) {
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
	want := "tribunal: error: run: boom second line\n" +
		"tribunal: hint: pass --in-place\n" +
		"tribunal: warning: branch tribunal/x not removed\n" +
		"tribunal: warning: config.json: unknown key \"foo\"\n" +
		"tribunal: task 01J started in the background\n" +
		"tribunal: [0:05] iteration 1/3: actor working\n" +
		"tribunal:   a.go (both modified)\n" +
		"tribunal-gate: unknown policy democracy, falling back to majority\n"
	if b.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", b.String(), want)
	}
}
