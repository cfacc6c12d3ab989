package unidiff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// MaxLineBytes caps one rendered line (a minified bundle or a data file can
// hold megabytes on one line); the rest is replaced by a count.
const MaxLineBytes = 1000

// minBudget is the smallest budget Render honours exactly; below it only
// the summary line is printed.
const minBudget = 200

// Render prints files for a judge within budget bytes:
//
//  1. a summary line ("3 files changed, +12 -4") and one line per file with
//     its status letter, path and +/- counts, marking binary, generated,
//     untracked and cut files — always present, so the judge knows every
//     path even when bodies are cut (past half the budget the list itself
//     ends with a count of the files it leaves out);
//  2. the text files' diffs, sharing the rest of the budget max-min fairly:
//     every file that fits in an equal share is shown whole, and the
//     remainder is split evenly among the larger ones, each cut at a line
//     boundary (after whole hunks where they fit) with a "… N more lines of
//     <path> omitted" line. A file whose share cannot hold even its header
//     is listed only.
//
// Binary, generated and Large files are summarised in their list line and
// never dumped. Lines are made valid UTF-8 (NUL shown as ␀) and capped at
// MaxLineBytes without splitting a character. The output is a pure function
// of its input; no changes render as "". It never exceeds budget bytes when
// budget >= 200; a smaller budget yields the summary line alone.
func Render(files []File, budget int) string {
	out, _ := RenderNoting(files, budget)
	return out
}

// RenderNoting is Render that also says, one line per file (and one for
// the files the list could not name), what the rendering left out or
// summarised instead of showing: the review's account of what its judges
// did not see.
func RenderNoting(files []File, budget int) (string, []string) {
	if len(files) == 0 {
		return "", nil
	}
	var b strings.Builder
	summary := summaryLine(files)
	b.WriteString(summary)
	if budget < minBudget {
		return b.String(), []string{fmt.Sprintf("every file's diff (%d file(s)): the budget of %d bytes holds only the summary line", len(files), budget)}
	}
	bodies := make([]body, len(files))
	for i := range files {
		bodies[i] = newBody(&files[i])
	}

	// The list may use up to half the budget; files it cannot name get no
	// body either, since a diff of an unlisted file would confuse. Each
	// line is measured with its "diff cut" note so that the final list,
	// written once the bodies are allocated, can only be shorter.
	listBudget := budget/2 - len(summary)
	restAdd, restDel := make([]int, len(files)+1), make([]int, len(files)+1)
	for i := len(files) - 1; i >= 0; i-- {
		restAdd[i] = restAdd[i+1] + files[i].Added
		restDel[i] = restDel[i+1] + files[i].Deleted
	}
	listed, listLen := 0, 0
	for i := range files {
		line := listLine(&files[i], &bodies[i], noteOmitted)
		reserve := 0
		if i+1 < len(files) {
			reserve = len(moreLine(len(files)-i-1, restAdd[i+1], restDel[i+1]))
		}
		if listLen+len(line)+reserve > listBudget {
			break
		}
		listLen += len(line)
		listed++
	}
	more := ""
	if listed < len(files) {
		more = moreLine(len(files)-listed, restAdd[listed], restDel[listed])
	}
	bodyBudget := budget - len(summary) - listLen - len(more) - 1 // the blank separator line
	alloc := allocate(bodies[:listed], bodyBudget)
	var left []string
	for i := 0; i < listed; i++ {
		note := ""
		if alloc[i] == 0 {
			note = noteOmitted
		} else if alloc[i] < bodies[i].size {
			note = noteCut
		}
		b.WriteString(listLine(&files[i], &bodies[i], note))
		if n := leftOut(&files[i], note); n != "" {
			left = append(left, quotePath(files[i].Path())+": "+n)
		}
	}
	b.WriteString(more)
	if more != "" {
		left = append(left, strings.TrimSuffix(strings.TrimPrefix(more, "… and "), "\n"))
	}
	var out strings.Builder
	for i := 0; i < listed; i++ {
		if alloc[i] <= 0 {
			continue
		}
		bodies[i].render(&out, alloc[i], files[i].Path())
	}
	if out.Len() > 0 {
		b.WriteByte('\n')
		b.WriteString(out.String())
	}
	return b.String(), left
}

// leftOut names why a listed file's body is not shown whole ("" when it
// is): summarised (binary, generated, large) or cut for space.
func leftOut(f *File, note string) string {
	switch {
	case f.Binary:
		return "binary, not shown"
	case f.Generated:
		return "generated file, diff not shown"
	case f.Large:
		return "large change, diff not shown"
	case note == noteOmitted:
		return "diff left out for space"
	case note == noteCut:
		return "diff cut for space"
	}
	return ""
}

// The notes of a text file whose body was cut or left out for lack of
// room; the list is measured with the longer one.
const (
	noteCut     = "diff cut"
	noteOmitted = "diff omitted for space"
)

// summaryLine totals the change.
func summaryLine(files []File) string {
	add, del := 0, 0
	for _, f := range files {
		add += f.Added
		del += f.Deleted
	}
	noun := "files"
	if len(files) == 1 {
		noun = "file"
	}
	return fmt.Sprintf("%d %s changed, +%d -%d\n", len(files), noun, add, del)
}

// moreLine names how many files the list leaves out.
func moreLine(n, add, del int) string {
	noun := "files"
	if n == 1 {
		noun = "file"
	}
	return fmt.Sprintf("… and %d more %s (+%d -%d) not listed\n", n, noun, add, del)
}

// listLine is one file's entry: letter, path (git-quoted when unusual), for
// a rename or copy the source, counts and notes. cut (noteCut, noteOmitted
// or "") is added to a file that has a body.
func listLine(f *File, bd *body, cut string) string {
	letter := map[Kind]string{Modified: "M", Added: "A", Deleted: "D", Renamed: "R", Copied: "C"}[f.Kind]
	var b strings.Builder
	b.WriteString(letter + " " + quotePath(f.Path()))
	if (f.Kind == Renamed || f.Kind == Copied) && f.OldPath != "" {
		b.WriteString(" (from " + quotePath(f.OldPath) + ")")
	}
	var notes []string
	switch {
	case f.Binary:
		notes = append(notes, "binary file "+f.Kind.String()+sizeNote(f.Size))
	case f.Generated:
		notes = append(notes, fmt.Sprintf("+%d -%d", f.Added, f.Deleted), "generated file, diff omitted"+sizeNote(f.Size))
	case f.Large:
		notes = append(notes, fmt.Sprintf("+%d -%d", f.Added, f.Deleted), "large change, diff omitted"+sizeNote(f.Size))
	default:
		plus := fmt.Sprintf("+%d", f.Added)
		if f.read > 0 {
			plus += " (first " + humanSize(f.read) + " of " + humanSize(f.Size) + " read)"
		}
		notes = append(notes, plus+fmt.Sprintf(" -%d", f.Deleted))
	}
	if f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode {
		notes = append(notes, "mode "+f.OldMode+" → "+f.NewMode)
	}
	if f.Untracked {
		notes = append(notes, "untracked")
	}
	if cut != "" && bd.size > 0 {
		notes = append(notes, cut)
	}
	b.WriteString("  " + strings.Join(notes, ", "))
	return capLine(b.String()) + "\n"
}

func sizeNote(size int64) string {
	if size < 0 {
		return ""
	}
	return ", " + humanSize(size)
}

// humanSize prints bytes in B, KB or MB (powers of 1024), one decimal
// place below 10 of a unit.
func humanSize(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1024*1024:
		return unitSize(n, 1024, "KB")
	default:
		return unitSize(n, 1024*1024, "MB")
	}
}

func unitSize(n, unit int64, name string) string {
	v := float64(n) / float64(unit)
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + name
	}
	return strconv.FormatInt(int64(v+0.5), 10) + " " + name
}

// body is one file's renderable diff: capped lines and their byte sizes.
type body struct {
	header, lines []string
	hunkStart     map[int]bool
	headerSize    int // bytes of the header lines, newlines included
	size          int // bytes of the whole body, newlines included
	minSize       int // header plus the longest possible omission line
}

func newBody(f *File) body {
	if f.Binary || f.Generated || f.Large || len(f.header) == 0 {
		return body{}
	}
	bd := body{hunkStart: map[int]bool{}}
	for _, l := range f.header {
		if strings.HasPrefix(l, "index ") {
			// Blob ids tell a reader nothing and cost budget.
			continue
		}
		l = capLine(l)
		bd.header = append(bd.header, l)
		bd.headerSize += len(l) + 1
	}
	for _, h := range f.hunks {
		bd.hunkStart[h] = true
	}
	bd.size = bd.headerSize
	for _, l := range f.lines {
		l = capLine(l)
		bd.lines = append(bd.lines, l)
		bd.size += len(l) + 1
	}
	bd.minSize = bd.headerSize + len(omitLine(len(bd.lines), f.Path()))
	if len(bd.lines) == 0 {
		bd.minSize = bd.size
	}
	return bd
}

func omitLine(n int, p string) string {
	noun := "lines"
	if n == 1 {
		noun = "line"
	}
	return fmt.Sprintf("… %d more %s of %s omitted\n", n, noun, quotePath(p))
}

// render writes the body within limit bytes.
func (bd *body) render(w *strings.Builder, limit int, p string) {
	for _, l := range bd.header {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if limit >= bd.size {
		for _, l := range bd.lines {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		return
	}
	room := limit - bd.minSize
	used, n := 0, 0
	for n < len(bd.lines) && used+len(bd.lines[n])+1 <= room {
		used += len(bd.lines[n]) + 1
		n++
	}
	// A hunk header whose first line did not fit says nothing; end the cut
	// at the hunk boundary instead.
	if n > 0 && bd.hunkStart[n-1] {
		n--
	}
	for _, l := range bd.lines[:n] {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	omitted := 0
	for i := n; i < len(bd.lines); i++ {
		if !bd.hunkStart[i] {
			omitted++
		}
	}
	w.WriteString(omitLine(omitted, p))
}

// allocate shares budget among bodies max-min fairly and gives 0 to any
// body whose share cannot hold its minimum (header and omission line),
// re-sharing what those would have used among the rest. Earlier files win
// when not every body can be shown.
func allocate(bodies []body, budget int) []int {
	sizes := make([]int, len(bodies))
	for i, bd := range bodies {
		sizes[i] = bd.size
	}
	for {
		alloc := waterFill(sizes, budget)
		var violators []int
		for i, bd := range bodies {
			if sizes[i] > 0 && alloc[i] < sizes[i] && alloc[i] < bd.minSize {
				violators = append(violators, i)
			}
		}
		if len(violators) == 0 {
			return alloc
		}
		// Drop the later half of the violators (at least one): each round
		// raises the others' share, so fewer may need dropping.
		for _, i := range violators[len(violators)/2:] {
			sizes[i] = 0
		}
	}
}

// waterFill is max-min fair sharing: sizes in increasing order each get
// what they ask while it is no more than an equal split of what is left;
// the rest get that equal split.
func waterFill(sizes []int, budget int) []int {
	alloc := make([]int, len(sizes))
	order := make([]int, 0, len(sizes))
	for i, s := range sizes {
		if s > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	left := max(budget, 0)
	for k, i := range order {
		share := left / (len(order) - k)
		if sizes[i] <= share {
			alloc[i] = sizes[i]
			left -= sizes[i]
			continue
		}
		for _, j := range order[k:] {
			alloc[j] = share
		}
		break
	}
	return alloc
}

// capLine makes a line valid UTF-8, shows NUL as ␀ and cuts it to
// MaxLineBytes at a character boundary with a count of what was cut.
func capLine(l string) string {
	l = strings.ToValidUTF8(l, "\uFFFD")
	l = strings.ReplaceAll(l, "\x00", "\u2400")
	if len(l) <= MaxLineBytes {
		return l
	}
	note := fmt.Sprintf(" … (%d more bytes)", len(l))
	kept := safetext.Head(l, MaxLineBytes-len(note))
	return kept + fmt.Sprintf(" … (%d more bytes)", len(l)-len(kept))
}
