package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func TestExtractRubric(t *testing.T) {
	for _, tc := range []struct{ in, task, id string }{
		{"fix the bug", "fix the bug", ""},
		{"--rubric=sec fix the bug", "fix the bug", "sec"},
		{"fix --rubric=sec the bug", "fix the bug", "sec"},
		{"fix the bug --rubric=sec", "fix the bug", "sec"},
		{"fix --rubric=a and --rubric=b", "fix and --rubric=b", "a"},
		{"see x--rubric=sec", "see x--rubric=sec", ""},
		{"--rubric= empty", "--rubric= empty", ""},
		{"--rubric=only", "", "only"},
	} {
		task, id := extractRubric(tc.in)
		if task != tc.task || id != tc.id {
			t.Errorf("extractRubric(%q) = %q, %q; want %q, %q", tc.in, task, id, tc.task, tc.id)
		}
	}
}

func TestLogFormat(t *testing.T) {
	for _, tc := range []struct {
		flag string
		tty  bool
		want string
		ok   bool
	}{
		{"auto", true, "table", true},
		{"auto", false, "md", true},
		{"md", true, "md", true},
		{"table", false, "table", true},
		{"html", true, "html", false},
	} {
		got, ok := logFormat(tc.flag, tc.tty)
		if got != tc.want || ok != tc.ok {
			t.Errorf("logFormat(%q, %v) = %q, %v; want %q, %v", tc.flag, tc.tty, got, ok, tc.want, tc.ok)
		}
	}
}

func TestStdTerminalIsNotAmbient(t *testing.T) {
	// A pipe, a regular file and a non-file writer are not terminals,
	// whatever the test's own stdout is.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, out := range map[string]io.Writer{"pipe": w, "file": f, "buffer": &bytes.Buffer{}} {
		if tty, width := stdTerminal(out); tty || width != 0 {
			t.Errorf("%s: terminal %v width %d", name, tty, width)
		}
	}
}
