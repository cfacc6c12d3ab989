package main

import (
	"fmt"
	"io"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/surface"
)

// output is everything this binary says on stderr: one line per
// diagnostic, each with its prefix, worded here and nowhere else
// (internal/surface hands over plain text). Its stdout is the hook's JSON
// object, written by internal/surface.
type output struct{ stderr io.Writer }

// warnf prints a problem of the hook: "tribunal: prompt-submit: …".
func (o output) warnf(format string, args ...any) {
	o.line("tribunal: prompt-submit: " + fmt.Sprintf(format, args...))
}

// warning prints a warning about the settings or a record the hook read:
// "tribunal: warning: …".
func (o output) warning(msg string) { o.line("tribunal: warning: " + msg) }

// line prints one diagnostic line, flattened (see safetext.WriteLine).
func (o output) line(s string) { safetext.WriteLine(o.stderr, s) }

// wire gives d this binary's diagnostics.
func (o output) wire(d surface.Deps) surface.Deps {
	d.Warnf, d.Warn = o.warnf, o.warning
	return d
}
