package receipt

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// A note holds every signer's receipt for one commit (spec §11.2): first
// one summary line per receipt, then one receipt per line, both sorted.
// The layout is chosen so that git's own ways of combining notes keep it
// readable: `git notes merge -s cat_sort_uniq` (two clones' notes) sorts
// the lines, which leaves summaries ("tribunal: …") before receipts
// ("{…}", '{' sorts after 't') and drops duplicates; notes.rewriteMode
// concatenate (a rebase onto a commit that had a note) joins two notes
// with a blank line, which the reader skips. No line is ever a
// continuation of another, so a reader needs nothing but the line.

// summaryPrefix starts a note's readable lines.
const summaryPrefix = "tribunal: "

// Entry is one receipt line of a note, parsed and checked (Err is
// ErrSignature's error when it does not verify), or a line that is no
// receipt at all.
type Entry struct {
	// Line is the note's line number (1-based), for messages.
	Line    int
	Text    []byte
	Receipt Receipt
	Err     error
}

// ParseNote reads a note: its summary and blank lines are skipped, every
// other line is an Entry. A line that is neither a summary nor JSON is an
// entry with an error, so that a hand-edited note is reported, not
// silently read past.
func ParseNote(note []byte) []Entry {
	var out []Entry
	summaries := map[string]int{}
	for i, raw := range bytes.Split(note, []byte("\n")) {
		line := bytes.TrimRight(raw, " \t\r")
		switch {
		case len(line) == 0:
			continue
		case bytes.HasPrefix(line, []byte(summaryPrefix)):
			if _, dup := summaries[string(line)]; !dup {
				summaries[string(line)] = i + 1
			}
			continue
		case line[0] != '{':
			out = append(out, Entry{Line: i + 1, Text: line,
				Err: fmt.Errorf("%w: note line %d is neither a summary (%q…) nor a receipt ({…})", ErrSignature, i+1, summaryPrefix)})
			continue
		}
		r, err := Parse(line)
		if err != nil {
			err = fmt.Errorf("note line %d: %w", i+1, err)
		} else {
			delete(summaries, r.Summary())
		}
		out = append(out, Entry{Line: i + 1, Text: line, Receipt: r, Err: err})
	}
	// A summary is what people read in git log: one that no receipt of
	// the note says was edited, and is reported like any edit.
	for s, n := range summaries {
		out = append(out, Entry{Line: n, Text: []byte(s),
			Err: fmt.Errorf("%w: note line %d is a summary that no receipt in the note says: %.100q", ErrSignature, n, s)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// Merge is the note that holds the receipts of old (a note's text, nil
// for none) with r in place of any earlier receipt by r's signer: one
// receipt per signer, the newest. Other signers' receipt lines are kept
// byte for byte, even ones that do not verify (verify reports them; they
// are not this signer's to drop); lines that are not receipts at all are
// dropped and returned as warnings.
func Merge(old []byte, r Receipt) ([]byte, []string, error) {
	line, err := r.Line()
	if err != nil {
		return nil, nil, err
	}
	lines := [][]byte{line}
	var warnings []string
	for _, e := range ParseNote(old) {
		switch {
		case e.Err == nil && e.Receipt.Signer.PublicKey == r.Signer.PublicKey:
			// Superseded by r.
		case bytes.HasPrefix(e.Text, []byte(summaryPrefix)):
			// A summary without its receipt: summaries are rebuilt.
		case e.Text[0] == '{':
			lines = append(lines, e.Text)
		default:
			warnings = append(warnings, fmt.Sprintf("dropped note line %d of commit %s: not a receipt: %.80q", e.Line, r.Commit, e.Text))
		}
	}
	return Format(lines), warnings, nil
}

// Format lays receipt lines out as a note: their summaries, then the
// lines, both sorted and without duplicates. A line that does not parse
// gets no summary.
func Format(lines [][]byte) []byte {
	set := map[string]bool{}
	var recs, sums []string
	for _, l := range lines {
		if set[string(l)] {
			continue
		}
		set[string(l)] = true
		recs = append(recs, string(l))
		if r, err := Parse(l); err == nil {
			sums = append(sums, r.Summary())
		}
	}
	sort.Strings(recs)
	sort.Strings(sums)
	return []byte(strings.Join(append(sums, recs...), "\n") + "\n")
}
