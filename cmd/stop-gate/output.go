package main

import (
	"fmt"
	"io"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/stophook"
)

// output is everything this binary says: one stderr line per diagnostic,
// each with its prefix, worded here and nowhere else (internal/stophook
// hands over plain text). It never writes stdout, which Claude Code
// parses as a Stop hook's decision.
type output struct{ stderr io.Writer }

// warnf prints a problem of the hook: "tribunal: stop-gate: …".
func (o output) warnf(format string, args ...any) {
	o.line("tribunal: stop-gate: " + fmt.Sprintf(format, args...))
}

// judgeWarnf prints a problem of the judge, detached or inline:
// "tribunal: stop-gate judge: …".
func (o output) judgeWarnf(format string, args ...any) {
	o.line("tribunal: stop-gate judge: " + fmt.Sprintf(format, args...))
}

// errorf prints a misuse of the judge command: "tribunal: stop-gate: error: …".
func (o output) errorf(format string, args ...any) {
	o.line("tribunal: stop-gate: error: " + fmt.Sprintf(format, args...))
}

// warning prints a warning about the settings: "tribunal: warning: …".
func (o output) warning(msg string) { o.line("tribunal: warning: " + msg) }

// line prints one diagnostic line, flattened (see safetext.WriteLine).
func (o output) line(s string) { safetext.WriteLine(o.stderr, s) }

// wire gives d this binary's diagnostics.
func (o output) wire(d stophook.Deps) stophook.Deps {
	d.Warnf, d.JudgeWarnf, d.Errorf, d.Warn = o.warnf, o.judgeWarnf, o.errorf, o.warning
	return d
}
