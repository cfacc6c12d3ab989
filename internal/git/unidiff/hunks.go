package unidiff

import (
	"strconv"
	"strings"
)

// Hunk is one "@@" section of a file's change, exported for a caller that
// edits a diff and writes it back (internal/judging/calibrate/mutate's breakages); the
// renderers keep working on the private lines.
type Hunk struct {
	// OldStart, OldCount, NewStart and NewCount are the header's ranges
	// ("@@ -OldStart,OldCount +NewStart,NewCount @@").
	OldStart, OldCount, NewStart, NewCount int
	// Section is what follows the closing "@@" (git's function context),
	// leading space included; "" when there is none.
	Section string
	// Lines are the body lines without their newline, each starting with
	// ' ', '+', '-' or '\' ("\ No newline at end of file").
	Lines []string
}

// Header returns a copy of the file's "diff --git" line and extended
// header lines (modes, rename, index, ---/+++), as the diff had them.
func (f File) Header() []string { return append([]string(nil), f.header...) }

// Hunks returns a copy of the file's hunks in diff order. A hunk whose "@@"
// line cannot be read keeps zero ranges.
func (f File) Hunks() []Hunk {
	var out []Hunk
	for i, at := range f.hunks {
		end := len(f.lines)
		if i+1 < len(f.hunks) {
			end = f.hunks[i+1]
		}
		h := readHunkHeader(f.lines[at])
		h.Lines = append([]string(nil), f.lines[at+1:end]...)
		out = append(out, h)
	}
	return out
}

// HeaderLine is the hunk's "@@" line as git writes it (a count of 1 is
// left out).
func (h Hunk) HeaderLine() string {
	return "@@ -" + hunkRange(h.OldStart, h.OldCount) + " +" + hunkRange(h.NewStart, h.NewCount) + " @@" + h.Section
}

// Format writes one file's change back as diff text: its header lines,
// then each hunk's "@@" line and body, every line ending in a newline.
func Format(header []string, hunks []Hunk) string {
	var b strings.Builder
	for _, l := range header {
		b.WriteString(l + "\n")
	}
	for _, h := range hunks {
		b.WriteString(h.HeaderLine() + "\n")
		for _, l := range h.Lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func hunkRange(start, count int) string {
	if count == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

// readHunkHeader reads "@@ -a,b +c,d @@ section".
func readHunkHeader(line string) Hunk {
	var h Hunk
	f := strings.Fields(line)
	if len(f) < 3 {
		return h
	}
	h.OldStart, h.OldCount = rangeStartCount(f[1], "-")
	h.NewStart, h.NewCount = rangeStartCount(f[2], "+")
	if rest := strings.TrimPrefix(line, "@@"); strings.Contains(rest, "@@") {
		h.Section = rest[strings.Index(rest, "@@")+2:]
	}
	return h
}

func rangeStartCount(r, sign string) (start, count int) {
	count = rangeCount(r, sign)
	s, _, _ := strings.Cut(strings.TrimPrefix(r, sign), ",")
	start, _ = strconv.Atoi(s)
	return start, count
}
