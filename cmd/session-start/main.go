// Command session-start is tribunal's Claude Code SessionStart hook: it tells a new session about advisory verdicts no session has seen yet.
package main

import (
	"context"
	"io"
	"os"

	"github.com/tribunal-cc/tribunal/internal/hook/surface"
	"github.com/tribunal-cc/tribunal/internal/output"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}

// run writes at most one JSON object to stdout (Claude Code reads it as the
// hook's output) and always returns 0: a session must start whatever
// happens here.
func run(ctx context.Context, _ []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	home, _ := os.UserHomeDir()
	if h := getenv("HOME"); h != "" {
		home = h
	}
	say := output.Hook{W: stderr, Name: "session-start"}
	return surface.Run(ctx, surface.Deps{
		Getenv:  getenv,
		Environ: os.Environ(),
		Stdin:   stdin,
		Stdout:  stdout,
		Home:    home,
		Warnf:   say.Warnf,
		Warn:    say.Warning,
	})
}
