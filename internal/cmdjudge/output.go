package cmdjudge

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// resolve finds the executable for argv0. A name with a slash is a path
// (relative to dir); a bare name is searched on the PATH in env, skipping
// relative PATH entries so that a repository cannot plant a "go" or "npm"
// of its own in the working directory (the stance of os/exec's ErrDot).
func resolve(argv0, dir string, env []string) (string, error) {
	if strings.ContainsRune(argv0, filepath.Separator) {
		p := argv0
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if !executable(p) {
			return "", fmt.Errorf("%w: %q is not an executable file", ErrNotFound, argv0)
		}
		return p, nil
	}
	pathEnv, set := lookupEnv(env, "PATH")
	if !set {
		return "", fmt.Errorf("%w: %q (PATH is not set in the judge's environment)", ErrNotFound, argv0)
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, argv0); executable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %q is not on PATH", ErrNotFound, argv0)
}

// lookupEnv returns the last value of key in env, as the child would see
// it (os/exec keeps the last of duplicate entries).
func lookupEnv(env []string, key string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val, found = v, true
		}
	}
	return val, found
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string { return string(b.buf) }

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
	return "`" + cut(strings.Join(parts, " "), 120) + "`"
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
				kept = append(kept, "…"+tailCut(line, budget-len("…")))
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

// cut keeps at most max bytes of s from the start, on a rune boundary.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// tailCut keeps at most max bytes of s from the end, on a rune boundary.
func tailCut(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if len(s) <= max {
		return s
	}
	i := len(s) - max
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
