package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/safetext"
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
}

// The diagnostics on stderr, each one line with its prefix: the only
// place that words the prefixes. Packages under internal/ hand over plain
// text (through these methods as their Deps' callbacks, or as errors).

// errorf prints "tribunal: error: …": what failed, on which input.
func (c *cli) errorf(format string, args ...any) {
	c.line("tribunal: error: " + fmt.Sprintf(format, args...))
}

// hint prints "tribunal: hint: …": what to do about the error above it.
func (c *cli) hint(format string, args ...any) {
	c.line("tribunal: hint: " + fmt.Sprintf(format, args...))
}

// warnf prints "tribunal: warning: …".
func (c *cli) warnf(format string, args ...any) { c.warning(fmt.Sprintf(format, args...)) }

// warning prints a warning worded elsewhere: the Warn of every Deps.
func (c *cli) warning(msg string) { c.line("tribunal: warning: " + msg) }

// progressf prints "tribunal: …": a step of a long run, or a notice that
// is neither a warning nor an error.
func (c *cli) progressf(format string, args ...any) { c.progress(fmt.Sprintf(format, args...)) }

// progress is progressf for a line worded elsewhere: the Progress and
// Note of every Deps.
func (c *cli) progress(msg string) { c.line("tribunal: " + msg) }

// item prints one entry of the list the line above introduces, indented
// under it ("tribunal:   …"; line would fold the indent).
func (c *cli) item(s string) {
	fmt.Fprintf(c.stderr, "tribunal:   %s\n", safetext.OneLine(s, 300))
}

// relay prints a warning that names its source itself ("tribunal-gate: …",
// as the decide output carries it) as it is: the Relay of every Deps.
func (c *cli) relay(msg string) { c.line(msg) }

// line prints one diagnostic line, flattened (see safetext.WriteLine).
func (c *cli) line(s string) { safetext.WriteLine(c.stderr, s) }

// progressBar is a progress bar redrawn in place on a terminal: draw is
// the Bar of calibrate.Deps, end finishes its line once the run is over.
type progressBar struct {
	w     io.Writer
	drawn bool
}

func (b *progressBar) draw(s string) {
	b.drawn = true
	fmt.Fprintf(b.w, "\rtribunal: %s", safetext.OneLine(s, 0))
}

func (b *progressBar) end() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}

// stillBusy is the last word of a process that did not stop within
// grace of being interrupted.
func stillBusy(stderr io.Writer, grace time.Duration) {
	fmt.Fprintf(stderr, "tribunal: error: interrupted, and still busy %v later; exiting now\n", grace)
}

func (c *cli) home() string {
	if h := c.getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func (c *cli) versionCmd(args []string) int {
	if len(args) > 0 {
		c.errorf("version takes no arguments")
		return exitUsage
	}
	fmt.Fprintf(c.stdout, "tribunal-session %s\n", version.Version)
	return 0
}

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
		c.errorf("help: unknown command %q", args[0])
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
