package main

import (
	"bytes"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/stophook"
)

// TestOutputPrefixes pins every line the stop hook can print, prefix and
// all: internal/stophook hands over plain text, and these are the only
// words around it.
func TestOutputPrefixes(t *testing.T) {
	var b bytes.Buffer
	d := output{&b}.wire(stophook.Deps{})
	d.Warnf("no advisory verdict: %v", "boom\nsecond line")
	d.JudgeWarnf("cannot mint ids: %s", "x")
	d.Errorf("usage: stop-gate %s [%s] JOB", "judge", "--locked")
	d.Warn("config.json: unknown key \"foo\"")
	want := "tribunal: stop-gate: no advisory verdict: boom second line\n" +
		"tribunal: stop-gate judge: cannot mint ids: x\n" +
		"tribunal: stop-gate: error: usage: stop-gate judge [--locked] JOB\n" +
		"tribunal: warning: config.json: unknown key \"foo\"\n"
	if b.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", b.String(), want)
	}
}
