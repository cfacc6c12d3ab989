package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/tribunal-cc/tribunal/internal/present/mdterm"
)

// terminal says whether w is a terminal and, when it is, its width in
// columns (0 when unknown). main passes stdTerminal; tests pass their own.
type terminal func(w io.Writer) (isTerminal bool, width int)

// stdTerminal asks the operating system about w's file descriptor: a
// pipe, a file or /dev/null is not a terminal.
func stdTerminal(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return true, 0
	}
	return true, width
}

// markdown prints a Markdown page (a summary, a show page) on stdout: as
// it is when stdout is a pipe or a file — byte for byte, for programs and
// Claude Code's Bash tool — and rendered as plain aligned text on a
// terminal, as log adapts its table.
func (c *cli) markdown(md string) {
	if tty, width := c.term(c.stdout); tty {
		md = mdterm.Render(md, width)
	}
	io.WriteString(c.stdout, md)
}
