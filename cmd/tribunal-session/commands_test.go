package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestEveryCommandHasHelp: every row of the commands table has a summary
// for the global help and its own usage text, which "<name> -h" prints on
// stdout with exit status 0, nothing on stderr.
func TestEveryCommandHasHelp(t *testing.T) {
	seen := map[string]bool{}
	for _, cmd := range commands {
		if seen[cmd.name] {
			t.Errorf("command %q is in the table twice", cmd.name)
		}
		seen[cmd.name] = true
		if cmd.summary == "" || !strings.HasPrefix(cmd.help, "usage: tribunal-session "+cmd.name) {
			t.Errorf("command %q: summary %q, help %.40q", cmd.name, cmd.summary, cmd.help)
		}
		for _, flag := range []string{"-h", "-help", "--help"} {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{cmd.name, flag}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr, stdTerminal)
			if code != 0 || stdout.String() != cmd.help || stderr.Len() != 0 {
				t.Errorf("%s %s: exit %d, stdout %.40q, stderr %q", cmd.name, flag, code, stdout.String(), stderr.String())
			}
		}
	}
	var global bytes.Buffer
	(&cli{}).usage(&global)
	for _, cmd := range commands {
		if !strings.Contains(global.String(), "\n  "+cmd.name+" ") {
			t.Errorf("the global help lacks %q", cmd.name)
		}
	}
}
