package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/version"
)

// cli carries the injected environment and streams. All output of this
// binary goes through its methods: results on stdout, everything else
// (progress, warnings, errors with hints) on stderr, each line prefixed.
type cli struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// term tells whether stdout is a terminal (and its width), for the
	// output forms meant for one.
	term terminal
	// red scrubs the configured credentials; stdout and stderr already
	// pass through it.
	red *redact.Redactor
	// stagedIndex is the index a review --staged reads instead of the
	// repository's: the one git hands a pre-commit hook in
	// GIT_INDEX_FILE ("" for the repository's own).
	stagedIndex string
}

// The diagnostics on stderr, each one line with its prefix, worded by
// internal/output; these one-line bindings are what the rest of this
// binary and its Deps' callbacks call.

func (c *cli) say() output.Session { return output.Session{W: c.stderr} }

// errorf prints what failed, on which input.
func (c *cli) errorf(format string, args ...any) { c.say().Errorf(format, args...) }

// hint prints what to do about the error above it.
func (c *cli) hint(format string, args ...any) { c.say().Hint(format, args...) }

func (c *cli) warnf(format string, args ...any) { c.warning(fmt.Sprintf(format, args...)) }

// warning is the Warn of every Deps.
func (c *cli) warning(msg string) { c.say().Warning(msg) }

func (c *cli) progressf(format string, args ...any) { c.progress(fmt.Sprintf(format, args...)) }

// progress is the Progress and Note of every Deps.
func (c *cli) progress(msg string) { c.say().Progress(msg) }

// item prints one entry of the list the line above introduces.
func (c *cli) item(s string) { c.say().Item(s) }

// relay is the Relay of every Deps: a line that names its source itself.
func (c *cli) relay(msg string) { c.say().Relay(msg) }

func (c *cli) home() string {
	if h := c.getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func (c *cli) versionCmd(args []string) int {
	args, ok := c.positional("version", args)
	if !ok {
		return exitUsage
	}
	if len(args) > 0 {
		c.errorf("version takes no arguments")
		return exitUsage
	}
	fmt.Fprintln(c.stdout, versionText())
	return 0
}

// versionText is what the version command prints.
func versionText() string { return "tribunal-session " + version.Version }

// helpCmd prints the global help, or with a command name that command's.
func (c *cli) helpCmd(args []string) int {
	switch len(args) {
	case 0:
		c.usage(c.stdout)
		return 0
	case 1:
		if cmd, ok := lookup(args[0]); ok {
			fmt.Fprint(c.stdout, cmd.help)
			return 0
		}
		c.errorf("help: unknown command %q%s", args[0], suggestCommand(args[0]))
	default:
		c.errorf("help takes at most one command name")
	}
	c.hint("tribunal-session help lists the commands")
	return exitUsage
}

// usage prints the global help, built from the commands table so that no
// command can be missing from it.
func (c *cli) usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("tribunal-session — the /tribunal loop and its records\n\nCommands:\n")
	width := 0
	for _, cmd := range commands {
		width = max(width, len(cmd.name))
	}
	for _, cmd := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, cmd.name, cmd.summary)
	}
	b.WriteString("\n'tribunal-session COMMAND -h' prints a command's usage, flags and exit status.\n\n")
	b.WriteString(exitText)
	fmt.Fprint(w, b.String())
}

// quietPipe is stdout or stderr once nobody may be reading it: after a
// write fails with EPIPE (the reader, say `head -2`, has gone) every write
// succeeds without writing, so no caller aborts its work over output
// nobody will see — the run still finishes and records itself complete.
type quietPipe struct {
	w io.Writer
	// closed is set by whichever goroutine (a judge's progress, the
	// result) first meets the EPIPE.
	closed atomic.Bool
}

func (q *quietPipe) Write(p []byte) (int, error) {
	if q.closed.Load() {
		return len(p), nil
	}
	n, err := q.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		q.closed.Store(true)
		return len(p), nil
	}
	return n, err
}
