package unidiff

import (
	"strconv"
	"strings"
)

// Line is one body line of a file's hunks: Op is '+', '-' or ' ', Number
// its 1-based line number on its own side (the new file for '+' and ' ',
// the old file for '-'), Text the line without its op.
type Line struct {
	Op     byte
	Number int
	Text   string
}

// Lines returns the file's hunk lines with their line numbers, for
// checks that cite file:line (the heuristic judge). "\ No newline" lines
// are left out; a hunk whose header does not say where it starts numbers
// from 0, which no caller cites.
func (f File) Lines() []Line {
	var out []Line
	oldN, newN := 0, 0
	for _, l := range f.lines {
		if strings.HasPrefix(l, "@@") {
			oldN, newN = hunkStarts(l)
			continue
		}
		if l == "" {
			l = " "
		}
		switch l[0] {
		case '+':
			out = append(out, Line{Op: '+', Number: newN, Text: l[1:]})
			newN++
		case '-':
			out = append(out, Line{Op: '-', Number: oldN, Text: l[1:]})
			oldN++
		case '\\':
		default:
			out = append(out, Line{Op: ' ', Number: newN, Text: l[1:]})
			oldN++
			newN++
		}
	}
	return out
}

// hunkStarts reads the first line numbers a and c of "@@ -a,b +c,d @@"
// (0 when unreadable).
func hunkStarts(line string) (old, new int) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return 0, 0
	}
	return rangeStart(f[1], "-"), rangeStart(f[2], "+")
}

func rangeStart(r, sign string) int {
	r, ok := strings.CutPrefix(r, sign)
	if !ok {
		return 0
	}
	start, _, _ := strings.Cut(r, ",")
	n, err := strconv.Atoi(start)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
