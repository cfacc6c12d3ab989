package main

import (
	"bytes"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/surface"
)

// TestOutputPrefixes pins every line the hook can print on stderr, prefix
// and all: internal/surface hands over plain text, and these are the only
// words around it.
func TestOutputPrefixes(t *testing.T) {
	var b bytes.Buffer
	d := output{&b}.wire(surface.Deps{})
	d.Warnf("cannot write the note: %v", "boom\nsecond line")
	d.Warn("config.json: unknown key \"foo\"")
	want := "tribunal: session-start: cannot write the note: boom second line\n" +
		"tribunal: warning: config.json: unknown key \"foo\"\n"
	if b.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", b.String(), want)
	}
}
