package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"slices"
	"testing"
)

func TestExtractRubric(t *testing.T) {
	for _, tc := range []struct {
		in, task, id string
		bad          bool
	}{
		{"fix the bug", "fix the bug", "", false},
		{"--rubric=sec fix the bug", "fix the bug", "sec", false},
		{"fix --rubric=sec the bug", "fix the bug", "sec", false},
		{"fix the bug --rubric=sec", "fix the bug", "sec", false},
		{"fix --rubric=a and --rubric=b", "fix and --rubric=b", "a", false},
		{"see x--rubric=sec", "see x--rubric=sec", "", false},
		{"--rubric= empty", "", "", true},
		{"fix it --rubric=", "", "", true},
		{"--rubric=only", "", "only", false},
	} {
		task, id, err := extractRubric(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("extractRubric(%q) error = %v, want error %v", tc.in, err, tc.bad)
		}
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

func TestParseRunArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		json bool
		bad  bool
	}{
		{args: []string{"fix it"}, pos: []string{"fix it"}},
		{args: []string{"fix it", "--json"}, pos: []string{"fix it"}, json: true},
		{args: []string{"--json", "fix", "it"}, pos: []string{"fix", "it"}, json: true},
		{args: []string{"fix", "--json", "it"}, pos: []string{"fix", "it"}, json: true},
		{args: []string{"--", "--json", "x"}, pos: []string{"--json", "x"}},
		{args: []string{"fix", "--", "-v", "--json"}, pos: []string{"fix", "-v", "--json"}},
		{args: []string{"fix", "--verbose"}, bad: true},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		asJSON := fs.Bool("json", false, "")
		pos, err := parseRunArgs(fs, tc.args)
		if (err != nil) != tc.bad {
			t.Errorf("parseRunArgs(%q) error = %v, want error %v", tc.args, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		if !slices.Equal(pos, tc.pos) || *asJSON != tc.json {
			t.Errorf("parseRunArgs(%q) = %q, json=%v; want %q, json=%v", tc.args, pos, *asJSON, tc.pos, tc.json)
		}
	}
}
