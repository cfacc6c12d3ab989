package main

import (
	"strings"
	"testing"
)

// TestOnlyPrintingCommandsSkipTheSignalHandlers: the handlers cost a
// thread at start, so the version and the help go without them; every
// command that works (and may need to record itself aborted) keeps them.
func TestOnlyPrintingCommandsSkipTheSignalHandlers(t *testing.T) {
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"--version", true},
		{"version", true},
		{"-h", true},
		{"--help", true},
		{"help", true},
		{"help review", true},
		{"", false},
		{"--version extra", false},
		{"-h review", false},
		{"review", false},
		{"run fix it", false},
		{"review --help", false},
		{"judge --answer a.txt", false},
	} {
		if got := printsOnly(strings.Fields(tc.args)); got != tc.want {
			t.Errorf("printsOnly(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
	for _, cmd := range commands {
		if cmd.name != "version" && cmd.name != "help" && printsOnly([]string{cmd.name}) {
			t.Errorf("%s runs without signal handlers", cmd.name)
		}
	}
}
