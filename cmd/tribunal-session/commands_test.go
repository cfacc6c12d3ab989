package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/llm/provider"
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

// TestEveryCommandWordsAnUnknownFlagAlike: every row of the commands table
// answers a flag it does not define with flags.go's one wording — the
// command, "unknown flag --<flag>", then the hint to its usage — and exit
// 2, before it reads anything or runs anything (issue 34: review said Go's
// "flag provided but not defined"). A command with subcommands is asked
// through each of them.
func TestEveryCommandWordsAnUnknownFlagAlike(t *testing.T) {
	subs := map[string][]string{
		"github":  {"prepare", "guard", "receipt", "publish", "dismissals", "reply"},
		"gitlab":  {"publish"},
		"hook":    {"install", "uninstall", "run"},
		"verdict": {"verify"},
	}
	home := t.TempDir()
	getenv := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "ONLOOKER_DIR":
			return home + "/onlooker"
		}
		return ""
	}
	for _, cmd := range commands {
		if cmd.name == "help" || cmd.name == provider.DelegateCommand {
			continue // help takes a command name; the delegate is internal
		}
		prefixes := [][]string{{cmd.name}}
		for _, s := range subs[cmd.name] {
			prefixes = append(prefixes, []string{cmd.name, s})
		}
		if len(subs[cmd.name]) > 0 {
			prefixes = prefixes[1:]
		}
		for _, p := range prefixes {
			name := strings.Join(p, " ")
			var stdout, stderr bytes.Buffer
			args := append(append([]string(nil), p...), "--no-such-flag")
			code := run(context.Background(), args, getenv, strings.NewReader(""), &stdout, &stderr, stdTerminal)
			want := "tribunal: error: " + name + ": unknown flag --no-such-flag\n" +
				"tribunal: hint: tribunal-session " + name + " -h\n"
			// A command may add hints of its own after the usage hint.
			if code != exitUsage || !strings.HasPrefix(stderr.String(), want) || stdout.Len() != 0 {
				t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", name, code, stdout.String(), stderr.String(), want)
			}
		}
	}
}
