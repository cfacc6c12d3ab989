// Package unidiff turns `git diff` output and untracked files into a
// bounded, deterministic unified diff for a judge's prompt, sharing a byte
// budget fairly across files.
package unidiff

import (
	"strconv"
	"strings"
)

// Kind is what happened to a file.
type Kind int

const (
	Modified Kind = iota // content and/or mode changed in place
	Added                // new file (tracked or untracked)
	Deleted              // file removed
	Renamed              // moved, possibly with edits
	Copied               // copied, possibly with edits
)

func (k Kind) String() string {
	switch k {
	case Added:
		return "added"
	case Deleted:
		return "deleted"
	case Renamed:
		return "renamed"
	case Copied:
		return "copied"
	}
	return "modified"
}

// File is one file's change. Fields are exported so that a caller can mark
// what only it knows (Generated from the work tree's first bytes, Size of a
// binary from the file system); the body lines stay private so every
// rendering goes through the budget.
type File struct {
	// OldPath and NewPath are the pre- and post-image paths without git's
	// a/ b/ prefixes and unquoted. For an added file OldPath is "", for a
	// deleted one NewPath is "".
	OldPath, NewPath string
	Kind             Kind
	// OldMode and NewMode are git's octal modes ("100644") when the diff
	// states them, else "".
	OldMode, NewMode string
	// Binary marks a change git (or NewFile) found to be binary; it is
	// summarised in one line, never dumped.
	Binary bool
	// Size is the post-image size in bytes (the pre-image's for a deleted
	// file) when known, else -1. Only binary and generated summaries show it.
	Size int64
	// Generated marks lockfiles, vendored, minified or code-generated files;
	// their body is summarised instead of dumped. Parse and NewFile set it
	// from the path and from the lines they see; callers may set it too.
	Generated bool
	// Untracked marks a file that git does not know yet (built by NewFile).
	Untracked bool
	// Large marks a change whose body the caller left out because it is
	// too large to be worth reading (built by Summary); it is summarised in
	// one line like a generated file.
	Large bool
	// Added and Deleted count the body's "+" and "-" lines.
	Added, Deleted int

	// header holds the "diff --git" line and the extended header lines
	// (modes, rename, index, ---/+++); lines holds the hunks' lines, each
	// "@@" line followed by its body lines, without trailing newlines.
	header []string
	lines  []string
	// hunks indexes the "@@" lines within lines.
	hunks []int
	// read is how many bytes of an untracked file were read when that is
	// less than its Size, else 0.
	read int64
	// literals are the sizes a binary patch's "literal N" lines state.
	literals []int64
}

// Path is the path a reader knows the file by: the new path, or the old
// one for a deletion.
func (f File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Parse splits `git diff` output (any of its forms: against HEAD, --cached,
// with or without --binary) into files, in the order git printed them.
// It never fails: text before the first "diff --git" line is ignored, and
// lines it does not recognise stay in the file they appear in. Paths are
// read with git's default a/ and b/ prefixes, which the plumbing diff-*
// commands always use (the porcelain `git diff` may not: diff.noprefix,
// diff.mnemonicPrefix); pass --src-prefix=a/ --dst-prefix=b/ to be sure.
func Parse(diff []byte) []File {
	text := string(diff)
	var files []File
	var cur *File
	// remaining counts the old and new lines the current hunk still owes,
	// so a removed line that starts with "--- " is not taken for a header.
	var oldLeft, newLeft int
	inHunk := false
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if inHunk && (oldLeft > 0 || newLeft > 0) {
			cur.lines = append(cur.lines, line)
			switch {
			case strings.HasPrefix(line, "+"):
				cur.Added++
				newLeft--
			case strings.HasPrefix(line, "-"):
				cur.Deleted++
				oldLeft--
			case strings.HasPrefix(line, "\\"):
				// "\ No newline at end of file" counts for neither side.
			default:
				oldLeft--
				newLeft--
			}
			continue
		}
		if strings.HasPrefix(line, "diff --git ") {
			files = append(files, File{Size: -1, header: []string{line}})
			cur = &files[len(files)-1]
			cur.OldPath, cur.NewPath = gitLinePaths(line)
			inHunk = false
			continue
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(line, "@@") {
			inHunk = true
			oldLeft, newLeft = hunkCounts(line)
			cur.hunks = append(cur.hunks, len(cur.lines))
			cur.lines = append(cur.lines, line)
			continue
		}
		if inHunk {
			// A "\ No newline" line after the hunk's counts ran out.
			if strings.HasPrefix(line, "\\") {
				cur.lines = append(cur.lines, line)
				continue
			}
			inHunk = false
		}
		headerLine(cur, line)
	}
	for i := range files {
		f := &files[i]
		if f.Kind == Added {
			f.OldPath = ""
		} else if f.Kind == Deleted {
			f.NewPath = ""
		}
		if f.Size < 0 && len(f.literals) > 0 {
			f.Size = f.literals[0]
			if f.Kind == Deleted && len(f.literals) > 1 {
				f.Size = f.literals[1]
			}
		}
		f.literals = nil
		if !f.Generated {
			f.Generated = IsGenerated(f.Path(), nil) || bodyDeclaresGenerated(f.lines)
		}
	}
	return files
}

// headerLine records one extended header line of the current file.
func headerLine(f *File, line string) {
	switch {
	case strings.HasPrefix(line, "GIT binary patch"):
		f.Binary = true
		f.header = append(f.header, line)
		return
	case f.Binary && len(f.header) > 0 && strings.HasPrefix(f.header[len(f.header)-1], "GIT binary patch"):
		// The patch's data is dropped, never rendered. Its first "literal N"
		// is the new image's size, the reverse hunk's second one the old's.
		if n, ok := strings.CutPrefix(line, "literal "); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil {
				f.literals = append(f.literals, v)
			}
		}
		return
	}
	f.header = append(f.header, line)
	switch {
	case strings.HasPrefix(line, "new file mode "):
		f.Kind = Added
		f.NewMode = strings.TrimPrefix(line, "new file mode ")
	case strings.HasPrefix(line, "deleted file mode "):
		f.Kind = Deleted
		f.OldMode = strings.TrimPrefix(line, "deleted file mode ")
	case strings.HasPrefix(line, "old mode "):
		f.OldMode = strings.TrimPrefix(line, "old mode ")
	case strings.HasPrefix(line, "new mode "):
		f.NewMode = strings.TrimPrefix(line, "new mode ")
	case strings.HasPrefix(line, "rename from "):
		f.Kind = Renamed
		f.OldPath = unquote(strings.TrimPrefix(line, "rename from "))
	case strings.HasPrefix(line, "rename to "):
		f.Kind = Renamed
		f.NewPath = unquote(strings.TrimPrefix(line, "rename to "))
	case strings.HasPrefix(line, "copy from "):
		f.Kind = Copied
		f.OldPath = unquote(strings.TrimPrefix(line, "copy from "))
	case strings.HasPrefix(line, "copy to "):
		f.Kind = Copied
		f.NewPath = unquote(strings.TrimPrefix(line, "copy to "))
	case strings.HasPrefix(line, "--- "):
		if p, ok := sidePath(strings.TrimPrefix(line, "--- "), "a/"); ok {
			f.OldPath = p
		}
	case strings.HasPrefix(line, "+++ "):
		if p, ok := sidePath(strings.TrimPrefix(line, "+++ "), "b/"); ok {
			f.NewPath = p
		}
	case strings.HasPrefix(line, "Binary files ") && strings.HasSuffix(line, " differ"):
		f.Binary = true
	}
}

// hunkCounts reads "@@ -a,b +c,d @@": b and d, each 1 when omitted. An
// unreadable header yields 0, 0, which ends the hunk at the next line that
// looks like a header.
func hunkCounts(line string) (old, new int) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return 0, 0
	}
	return rangeCount(f[1], "-"), rangeCount(f[2], "+")
}

func rangeCount(r, sign string) int {
	r, ok := strings.CutPrefix(r, sign)
	if !ok {
		return 0
	}
	_, count, found := strings.Cut(r, ",")
	if !found {
		return 1
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// sidePath reads the path of a ---/+++ line: "/dev/null" means no file on
// that side; git appends a tab to names containing a space.
func sidePath(s, prefix string) (string, bool) {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return "", true
	}
	s = unquote(s)
	p, ok := strings.CutPrefix(s, prefix)
	return p, ok
}

// gitLinePaths guesses both paths from "diff --git a/X b/Y". Unquoted names
// with spaces are ambiguous there, so it only trusts the symmetric case
// (X == Y) or quoted names; the ---/+++ and rename lines that follow, when
// present, override it.
func gitLinePaths(line string) (string, string) {
	s := strings.TrimPrefix(line, "diff --git ")
	if strings.HasPrefix(s, `"`) {
		if end := closingQuote(s); end > 0 {
			a := unquote(s[:end+1])
			b := unquote(strings.TrimPrefix(s[end+1:], " "))
			return strings.TrimPrefix(a, "a/"), strings.TrimPrefix(b, "b/")
		}
	}
	if n := len(s); n >= 5 && (n-1)%2 == 0 {
		half := (n - 1) / 2
		a, b := s[:half], s[half+1:]
		if s[half] == ' ' && strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
			return a[2:], b[2:]
		}
	}
	if a, b, ok := strings.Cut(s, " b/"); ok && strings.HasPrefix(a, "a/") {
		return a[2:], unquote(b)
	}
	return s, s
}

// closingQuote finds the index of the quote ending a C-quoted string that
// starts at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unquote undoes git's C-style quoting ("a/\303\251\n") and leaves any other
// text alone.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
