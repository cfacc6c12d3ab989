// Command prompt-submit is tribunal's Claude Code UserPromptSubmit hook: it shows, once, an advisory verdict that finished after its turn ended.
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

// run writes at most one JSON object to stdout and always returns 0: a
// prompt must go through whatever happens here.
func run(ctx context.Context, _ []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	say := output.Hook{W: stderr, Name: "prompt-submit"}
	return surface.RunPrompt(ctx, surface.Deps{
		Getenv: getenv,
		Stdin:  stdin,
		Stdout: stdout,
		Home:   home,
		Warnf:  say.Warnf,
		Warn:   say.Warning,
	})
}
