package review

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

// FingerprintVersion starts every fingerprint, so a change of the rule
// below never matches an old dismissal by accident.
const FingerprintVersion = "tf1"

// Fingerprint is a finding's identity across pushes, the one rule of it:
// a hash of the file, the criterion (the severity when the judge named
// none), the message with digits and spacing normalised, and the cited
// line's content with its indentation dropped — never the line number and
// never the judge, so that a finding which did not move, reported again
// by any judge, keeps its fingerprint, and one whose code changed gets a
// new one. cited is the cited line's text in the head state ("" without
// a line).
func Fingerprint(f severity.Finding, cited string) string {
	h := sha256.New()
	topic := f.Criterion
	if topic == "" {
		topic = f.Severity
	}
	for _, part := range []string{filepath.ToSlash(f.File), strings.ToLower(topic), normalise(f.Message), strings.Join(strings.Fields(cited), " ")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return FingerprintVersion + ":" + hex.EncodeToString(h.Sum(nil))[:32]
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

// CitedLine is line n (1-based) of file under dir, "" when the file or
// the line is not there or the path leaves dir.
func CitedLine(dir, file string, n int) string {
	if file == "" || n < 1 || filepath.IsAbs(file) {
		return ""
	}
	p := filepath.Join(dir, filepath.FromSlash(file))
	if rel, err := filepath.Rel(dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	data, err := store.ReadRegular(p, maxCitedFile)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 64<<10), maxCitedFile)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return sc.Text()
		}
	}
	return ""
}
