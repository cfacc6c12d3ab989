package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A page is rendered for a terminal and left byte for byte alone for a
// pipe (the goldens of every script pin the piped form).
func TestMarkdownFollowsTheTerminal(t *testing.T) {
	const page = "## tribunal ✗ not accepted — score 0.61\n\n| iteration | gate |\n|---|---|\n| 1 | **blocked** |\n"
	for _, tc := range []struct {
		tty  bool
		want string
	}{
		{false, page},
		{true, "tribunal ✗ not accepted — score 0.61\n" + strings.Repeat("─", 36) + "\n\niteration  gate\n" + strings.Repeat("─", 18) + "\n1          blocked\n"},
	} {
		var out bytes.Buffer
		c := &cli{stdout: &out, term: func(io.Writer) (bool, int) { return tc.tty, 100 }}
		c.markdown(page)
		if out.String() != tc.want {
			t.Errorf("tty %v:\ngot  %q\nwant %q", tc.tty, out.String(), tc.want)
		}
	}
}
