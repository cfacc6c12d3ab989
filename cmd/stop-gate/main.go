// Command stop-gate is tribunal's Claude Code Stop hook: an advisory judge of the turn that just ended.
package main

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/stophook"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}

// run never writes to stdout: Claude Code parses a Stop hook's stdout as a
// decision, and an advisory judge must not make one.
func run(ctx context.Context, _ []string, getenv func(string) string, stdin io.Reader, _ io.Writer, stderr io.Writer) int {
	return stophook.Run(ctx, stophook.Deps{
		Getenv:  getenv,
		Environ: os.Environ(),
		Stdin:   stdin,
		Stderr:  stderr,
		Home:    getenv("HOME"),
		// The sibling binary of the plugin's bin directory.
		SessionBin: sessionBin(),
	})
}

// sessionBin is tribunal-session in this executable's directory, or "".
func sessionBin() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(exe), "tribunal-session")
}
