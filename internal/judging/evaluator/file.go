package evaluator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// runFileEquals compares the file's content with the expected text,
// byte for byte, and names the first line that differs.
func (e compiled) runFileEquals(root *os.Root) (string, []failure) {
	data, err := readRoot(root, e.File)
	if errors.Is(err, fs.ErrNotExist) {
		msg := e.File + " does not exist"
		return msg, []failure{{message: msg}}
	}
	if err != nil {
		msg := "cannot read " + e.File + ": " + err.Error()
		return msg, []failure{{message: msg}}
	}
	got := string(data)
	if got == e.Expected {
		return e.File + " has the expected content", nil
	}
	line, have, want := firstDifference(got, e.Expected)
	msg := fmt.Sprintf("%s differs from the expected content at line %d: has %s, expected %s", e.File, line, have, want)
	return msg, []failure{{file: e.File, line: line, message: msg}}
}

// firstDifference returns the 1-based number of the first line where got
// and want differ, and both lines quoted ("end of file" past the end).
func firstDifference(got, want string) (int, string, string) {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	return i + 1, lineAt(g, i), lineAt(w, i)
}

// lineAt shows line i for a message ("end of file" past the end).
func lineAt(lines []string, i int) string {
	if i >= len(lines) || (i == len(lines)-1 && lines[i] == "") {
		return "end of file"
	}
	return fmt.Sprintf("%q", safetext.Clip(lines[i], 80))
}
