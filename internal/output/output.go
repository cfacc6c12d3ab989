// Package output words everything tribunal's binaries say on stderr: each
// diagnostic one safe line with its "tribunal: " prefix, here and nowhere
// else.
package output

import (
	"fmt"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Packages under internal/ hand over plain text (warnings through Warn
// callbacks, progress through progress funcs, errors as errors); the
// binaries pass it through the methods below, so that a prefix is never
// printed twice nor forgotten and this file shows every form a line can
// take. safetext's TestPrefixesOnlyInOutput keeps the prefixes here.

// line prints one diagnostic line, flattened (see safetext.WriteLine).
func line(w io.Writer, s string) { safetext.WriteLine(w, s) }

// Hook is the stderr of a Claude Code hook binary, which names itself in
// its own problems: Claude Code shows a hook's stderr with nothing to say
// which hook wrote it.
type Hook struct {
	W io.Writer
	// Name is the binary's name: "stop-gate", "session-start", …
	Name string
}

// Warnf prints a problem of the hook: "tribunal: <name>: …".
func (h Hook) Warnf(format string, args ...any) {
	line(h.W, "tribunal: "+h.Name+": "+fmt.Sprintf(format, args...))
}

// JudgeWarnf prints a problem of the hook's judge, detached or inline:
// "tribunal: <name> judge: …".
func (h Hook) JudgeWarnf(format string, args ...any) {
	line(h.W, "tribunal: "+h.Name+" judge: "+fmt.Sprintf(format, args...))
}

// Errorf prints a misuse of the hook's command line: "tribunal: <name>: error: …".
func (h Hook) Errorf(format string, args ...any) {
	line(h.W, "tribunal: "+h.Name+": error: "+fmt.Sprintf(format, args...))
}

// Warning prints a warning about the settings or a record the hook read:
// "tribunal: warning: …".
func (h Hook) Warning(msg string) { line(h.W, "tribunal: warning: "+msg) }

// Session is the stderr of tribunal-session, whose lines need no name:
// the user ran it.
type Session struct{ W io.Writer }

// Errorf prints "tribunal: error: …": what failed, on which input.
func (s Session) Errorf(format string, args ...any) {
	line(s.W, "tribunal: error: "+fmt.Sprintf(format, args...))
}

// Hint prints "tribunal: hint: …": what to do about the error above it.
func (s Session) Hint(format string, args ...any) {
	line(s.W, "tribunal: hint: "+fmt.Sprintf(format, args...))
}

// Warning prints "tribunal: warning: …" for a warning worded elsewhere: the
// Warn of every Deps.
func (s Session) Warning(msg string) { line(s.W, "tribunal: warning: "+msg) }

// Progress prints "tribunal: …": a step of a long run, or a notice that is
// neither a warning nor an error; the Progress and Note of every Deps.
func (s Session) Progress(msg string) { line(s.W, "tribunal: "+msg) }

// Item prints one entry of the list the line above introduces, indented
// under it ("tribunal:   …"; a flattened line would fold the indent).
func (s Session) Item(text string) {
	fmt.Fprintf(s.W, "tribunal:   %s\n", safetext.OneLine(text, 300))
}

// Relay prints a line that names its source itself ("tribunal-gate: …",
// as the decide output carries it) as it is: the Relay of every Deps.
func (s Session) Relay(msg string) { line(s.W, msg) }

// StillBusy is the last word of a process that did not stop within grace
// of being interrupted.
func (s Session) StillBusy(grace time.Duration) {
	s.Errorf("interrupted, and still busy %v later; exiting now", grace)
}

// Bar is a progress bar redrawn in place on a terminal: Draw is the Bar of
// calibrate.Deps, End finishes its line once the run is over.
type Bar struct {
	W     io.Writer
	drawn bool
}

// Draw replaces the bar's line with s.
func (b *Bar) Draw(s string) {
	b.drawn = true
	fmt.Fprintf(b.W, "\rtribunal: %s", safetext.OneLine(s, 0))
}

// Clear erases the bar's line, if it is drawn, so that a whole line can
// be printed in its place (the next Draw starts it again).
func (b *Bar) Clear() {
	if b.drawn {
		fmt.Fprint(b.W, "\r\033[K")
		b.drawn = false
	}
}

// End ends the bar's line, if it was drawn.
func (b *Bar) End() {
	if b.drawn {
		fmt.Fprintln(b.W)
	}
}
