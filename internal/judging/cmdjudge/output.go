package cmdjudge

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// display renders argv for messages, in backquotes, quoting any argument
// a reader could not split back by eye; long command lines are cut.
func display(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'`\\$") || !utf8.ValidString(a) {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return "`" + safetext.Clip(strings.Join(parts, " "), 120) + "`"
}

// lastLines returns the end of a command's output that fits in budget
// bytes, starting at a line boundary when it can: test runners and linters
// print their verdict last. Terminal escapes and other control characters
// are removed and invalid UTF-8 replaced, since the text goes into JSON
// artifacts and a model's prompt.
func lastLines(out string, budget int) string {
	if budget <= 0 {
		return ""
	}
	lines := strings.Split(clean(out), "\n")
	var kept []string
	size := 0
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimRight(lines[i], " \t")
		if line == "" && len(kept) == 0 {
			continue // trailing blank lines
		}
		need := len(line)
		if len(kept) > 0 {
			need++ // the newline joining it
		}
		if size+need > budget {
			if len(kept) == 0 {
				kept = append(kept, "…"+safetext.Tail(line, budget-len("…")))
			}
			break
		}
		kept = append(kept, line)
		size += need
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// clean strips ANSI escape sequences, resolves carriage-return progress
// lines to what a terminal would finally show, and drops other control
// characters except tab and newline.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			continue
		}
		// ESC [ params final-byte (CSI) or ESC ] … BEL/ST (OSC); any other
		// ESC drops with the byte after it.
		switch {
		case i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case i+1 < len(s) && s[i+1] == ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++
		}
	}
	lines := strings.Split(strings.ReplaceAll(b.String(), "\r\n", "\n"), "\n")
	for i, l := range lines {
		if k := strings.LastIndexByte(l, '\r'); k >= 0 {
			l = l[k+1:]
		}
		lines[i] = strings.Map(func(r rune) rune {
			if r == '\t' || r >= 0x20 && r != 0x7f && !(r >= 0x80 && r < 0xa0) {
				return r
			}
			return -1
		}, l)
	}
	return strings.Join(lines, "\n")
}
