package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
)

// TestSayWiresEveryCallback: each of the hook's four diagnostic callbacks
// prints its own kind of line, named for this binary.
func TestSayWiresEveryCallback(t *testing.T) {
	var b bytes.Buffer
	d := say(&b, stophook.Deps{})
	d.Warnf("w")
	d.JudgeWarnf("j")
	d.Errorf("e")
	d.Warn("c")
	want := "tribunal: stop-gate: w\ntribunal: stop-gate judge: j\ntribunal: stop-gate: error: e\ntribunal: warning: c\n"
	if b.String() != want {
		t.Errorf("stderr %q, want %q", b.String(), want)
	}
}

// TestRunSpeaksThroughSay: a misused or broken judge command is reported
// on stderr as this binary's error, with the judge's exit status.
func TestRunSpeaksThroughSay(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-job")
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{stophook.JudgeCommand}, 2, "tribunal: stop-gate: error: usage: stop-gate judge "},
		{[]string{stophook.JudgeCommand, missing}, 1, "tribunal: stop-gate: error: cannot read the job "},
	} {
		var stderr bytes.Buffer
		getenv := func(string) string { return "" }
		code := run(context.Background(), tt.args, getenv, strings.NewReader(""), os.Stdout, &stderr)
		if code != tt.code || !strings.HasPrefix(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q…", tt.args, code, stderr.String(), tt.code, tt.want)
		}
	}
}
