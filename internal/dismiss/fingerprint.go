// Package dismiss owns dismissed findings: the one fingerprint rule of a
// finding, the repository's shared dismissal file, the personal list in the
// store, the inline form in the code, and the matching that keeps a
// dismissed finding from being raised again until its code changes.
package dismiss

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Version starts every fingerprint, so a change of the rule below never
// matches an old dismissal by accident. tf1 hashed the message and the
// cited line alone; tf2 hashes the code around the cited line instead of
// the message, so a judge rewording the same finding keeps it dismissed.
const Version = "tf2"

// Around is how many non-blank lines on each side of the cited line the
// fingerprint's context holds: one, so that the same statement elsewhere
// in the file is another finding, while a block moved with its comment
// (or code added a line away from it) keeps its dismissal.
const Around = 1

// Fingerprint is a finding's identity across pushes and turns, the one
// rule of it: a hash of the file, the topic (the criterion, lower-cased;
// the severity when the judge named none) and the context of the cited
// line (Context: the line and its neighbours, indentation and blank lines
// dropped) — never the line number and never the judge. The message is
// hashed only when there is no context (no file, no line, or a line that
// is not there), normalised (digits and spacing), so that file-less
// findings do not all share one identity. A finding whose code moved
// keeps its fingerprint; one whose code changed gets a new one.
func Fingerprint(f severity.Finding, context string) string {
	h := sha256.New()
	topic := f.Criterion
	if topic == "" {
		topic = f.Severity
	}
	msg := ""
	if context == "" {
		msg = normalise(f.Message)
	}
	for _, part := range []string{filepath.ToSlash(f.File), strings.ToLower(topic), msg, context} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return Version + ":" + hex.EncodeToString(h.Sum(nil))[:32]
}

// Of is f's fingerprint with its context read from the tree at dir.
func Of(dir string, f severity.Finding) string {
	return Fingerprint(f, Context(dir, f.File, f.Line))
}

// normalise lower-cases a message, turns every run of digits into "#"
// (line numbers and counts a judge quotes move with unrelated edits) and
// collapses white space and trailing punctuation.
func normalise(msg string) string {
	var b strings.Builder
	digits := false
	for _, r := range strings.ToLower(msg) {
		if unicode.IsDigit(r) {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return strings.TrimRight(strings.Join(strings.Fields(b.String()), " "), ".!;: ")
}

// maxCitedFile bounds the bytes read to find a cited line.
const maxCitedFile = 8 << 20

// Lines are a file's lines as read under dir, nil when the file is not
// there, is not a regular file, or the path leaves dir.
func Lines(dir, file string) []string {
	if file == "" || filepath.IsAbs(file) {
		return nil
	}
	p := filepath.Join(dir, filepath.FromSlash(file))
	if rel, err := filepath.Rel(dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	data, err := store.ReadRegular(p, maxCitedFile)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 64<<10), maxCitedFile)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// Context is the code a finding at line n (1-based) of file points at:
// that line and up to Around non-blank lines on each side, each with its
// spacing collapsed, joined by newlines; "" when the file or the line is
// not there.
func Context(dir, file string, n int) string {
	return ContextOf(Lines(dir, file), n)
}

// ContextOf is Context over lines already read.
func ContextOf(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var before, after []string
	for i := n - 2; i >= 0 && len(before) < Around; i-- {
		if s := squash(lines[i]); s != "" {
			before = append([]string{s}, before...)
		}
	}
	for i := n; i < len(lines) && len(after) < Around; i++ {
		if s := squash(lines[i]); s != "" {
			after = append(after, s)
		}
	}
	return strings.Join(append(append(before, ">"+squash(lines[n-1])), after...), "\n")
}

// CitedLine is line n (1-based) of file under dir, "" when the file or
// the line is not there or the path leaves dir.
func CitedLine(dir, file string, n int) string {
	lines := Lines(dir, file)
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
