// Command stop-gate is tribunal's Claude Code Stop hook: an advisory judge of the turn that just ended.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
	"github.com/tribunal-cc/tribunal/internal/output"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}

// watchSignals makes SIGTERM, SIGINT and SIGHUP (a hook timeout, the
// session ending, a newer turn superseding a detached judge) cancel the
// context, which kills the judge's process group before the process
// exits. stophook.Run calls it only once there is work to stop.
func watchSignals(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
}

// run never writes to stdout: Claude Code parses a Stop hook's stdout as a
// decision, and an advisory judge must not make one. It returns 0, or 2
// when fix mode hands a failing verdict back to the model.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, _ io.Writer, stderr io.Writer) int {
	self, _ := os.Executable()
	return stophook.Run(ctx, say(stderr, stophook.Deps{
		Getenv:   getenv,
		Environ:  os.Environ(),
		Stdin:    stdin,
		Stderr:   stderr,
		Home:     getenv("HOME"),
		Args:     args,
		Self:     self,
		SelfName: "stop-gate",
		// The sibling binary of the plugin's bin directory makes the
		// openai provider's calls, so this binary links no HTTP client.
		SessionBin: filepath.Join(filepath.Dir(self), "tribunal-session"),
		Signals:    watchSignals,
	}))
}

// say gives d this binary's diagnostics, worded by internal/output.
func say(stderr io.Writer, d stophook.Deps) stophook.Deps {
	o := output.Hook{W: stderr, Name: "stop-gate"}
	d.Warnf, d.JudgeWarnf, d.Errorf, d.Warn = o.Warnf, o.JudgeWarnf, o.Errorf, o.Warning
	return d
}
