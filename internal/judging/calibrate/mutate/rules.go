package mutate

import (
	"fmt"
	"strings"
)

// dropHunk removes the hunk of a non-test file with the most changed
// lines (the first in diff order on a tie); later hunks of that file move
// up by the lines it added, and a file left with no hunk leaves the diff.
func (p patch) dropHunk() (string, error) {
	total, fi, hi, best := 0, -1, -1, -1
	for i, f := range p {
		total += len(f.hunks)
		if f.test {
			continue
		}
		for j, h := range f.hunks {
			if n := changed(h.Lines); n > best {
				fi, hi, best = i, j, n
			}
		}
	}
	switch {
	case fi < 0:
		return "", &NotApplicable{Reason: "the diff has no hunk outside test files"}
	case total < 2:
		return "", &NotApplicable{Reason: "the diff has a single hunk; dropping it leaves no change"}
	}
	f := &p[fi]
	h := f.hunks[hi]
	shift := h.NewCount - h.OldCount
	for j := hi + 1; j < len(f.hunks); j++ {
		f.hunks[j].NewStart -= shift
	}
	f.hunks = append(f.hunks[:hi], f.hunks[hi+1:]...)
	if len(f.hunks) == 0 {
		f.gone = true
	}
	return fmt.Sprintf("%s: hunk %q dropped (%d changed lines)", f.path, h.HeaderLine(), best), nil
}

func changed(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
			n++
		}
	}
	return n
}

// deleteTests removes every test file's change (IsTest).
func (p patch) deleteTests() (string, error) {
	var gone []string
	for i := range p {
		if p[i].test {
			p[i].gone = true
			gone = append(gone, p[i].path)
		}
	}
	switch {
	case len(gone) == 0:
		return "", &NotApplicable{Reason: "the diff changes no test file"}
	case len(gone) == len(p):
		return "", &NotApplicable{Reason: "the diff changes nothing but test files"}
	}
	return "test changes dropped: " + strings.Join(gone, ", "), nil
}

// editLine rewrites the first added line of code (a "+" line of a
// non-test file that is not a comment), in diff order, that edit can
// rewrite; none is a NotApplicable with reason.
func (p patch) editLine(edit func(code, path string) (string, bool), reason string) (string, error) {
	for _, f := range p {
		if f.test {
			continue
		}
		for _, h := range f.hunks {
			newLine := h.NewStart
			for k, l := range h.Lines {
				switch {
				case strings.HasPrefix(l, "+"):
					if out, ok := edit(l[1:], f.path); ok && !comment(l[1:]) {
						h.Lines[k] = "+" + out
						return fmt.Sprintf("%s:%d: %q → %q", f.path, newLine, strings.TrimSpace(l[1:]), strings.TrimSpace(out)), nil
					}
					newLine++
				case strings.HasPrefix(l, " "):
					newLine++
				}
			}
		}
	}
	return "", &NotApplicable{Reason: reason}
}

// comment is a line that starts, after indentation, with //, #, /* or *.
func comment(code string) bool {
	t := strings.TrimSpace(code)
	for _, c := range []string{"//", "#", "/*", "*"} {
		if strings.HasPrefix(t, c) {
			return true
		}
	}
	return false
}
