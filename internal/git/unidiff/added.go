package unidiff

import (
	"strconv"
	"strings"
)

// AddedLine is one line a change adds: its 1-based number in the new file
// and its text without the leading '+'.
type AddedLine struct {
	Line int
	Text string
}

// AddedLines returns the lines the file's hunks add, numbered in the
// post-image, for deterministic checks over what a change introduces. A
// binary file, and one whose body was left out (a summary), adds none.
func (f File) AddedLines() []AddedLine {
	out := make([]AddedLine, 0, f.Added)
	next, h := 0, 0
	for i, l := range f.lines {
		switch {
		case h < len(f.hunks) && f.hunks[h] == i:
			h++
			next = newStart(l)
		case strings.HasPrefix(l, "+"):
			out = append(out, AddedLine{Line: next, Text: l[1:]})
			next++
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, "\\"):
		default:
			next++
		}
	}
	return out
}

// AddedByPath are the post-image line numbers of the '+' lines of files,
// by new path: where a change wrote code of its own (a dismissal marker
// there does not count, and an inline comment may be placed only there).
func AddedByPath(files []File) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, f := range files {
		if f.NewPath == "" || f.Binary {
			continue
		}
		for _, l := range f.Lines() {
			if l.Op != '+' {
				continue
			}
			if out[f.NewPath] == nil {
				out[f.NewPath] = map[int]bool{}
			}
			out[f.NewPath][l.Number] = true
		}
	}
	return out
}

// newStart reads c of "@@ -a,b +c,d @@"; an unreadable header yields 1.
func newStart(header string) int {
	f := strings.Fields(header)
	if len(f) < 3 {
		return 1
	}
	start, _, _ := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
	n, err := strconv.Atoi(start)
	if err != nil || n < 1 {
		return 1
	}
	return n
}
