package gitlabmr

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// Position is a text position on the merge request's diff, as the
// discussions API takes it: an added line is anchored by new_line alone.
type Position struct {
	PositionType string `json:"position_type"`
	BaseSHA      string `json:"base_sha"`
	StartSHA     string `json:"start_sha"`
	HeadSHA      string `json:"head_sha"`
	OldPath      string `json:"old_path"`
	NewPath      string `json:"new_path"`
	NewLine      int    `json:"new_line"`
}

// Finding is one finding of the review's JSON output (review --output
// json=FILE), the fields publishing reads.
type Finding struct {
	Judge       string `json:"judge"`
	Criterion   string `json:"criterion"`
	Severity    string `json:"severity"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Message     string `json:"message"`
	Unverified  bool   `json:"unverified"`
	Refuted     bool   `json:"refuted"`
	Fingerprint string `json:"fingerprint"`
}

// Changed indexes a merge request's diffs: the new lines each file's
// change added (the lines a discussion can sit on with new_line alone)
// and each new path's old path.
type Changed struct {
	added   map[string]map[int]bool
	oldPath map[string]string
}

// NewChanged reads the API's diffs. Each diff is hunks only; a git
// header is put before it so that unidiff, the one parser of diffs,
// reads it.
func NewChanged(diffs []Diff) Changed {
	ch := Changed{oldPath: map[string]string{}}
	var b strings.Builder
	for _, d := range diffs {
		if d.DeletedFile || d.NewPath == "" {
			continue
		}
		ch.oldPath[d.NewPath] = d.OldPath
		old := "a/" + d.OldPath
		if d.NewFile {
			old = "/dev/null"
		}
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- %s\n+++ b/%s\n", d.OldPath, d.NewPath, old, d.NewPath)
		b.WriteString(d.Diff)
		if !strings.HasSuffix(d.Diff, "\n") {
			b.WriteByte('\n')
		}
	}
	ch.added = unidiff.AddedByPath(unidiff.Parse([]byte(b.String())))
	return ch
}

// Place is where finding f can be discussed: ok false with why when it
// has no verified place on a line the change added.
func (ch Changed) Place(f Finding, refs DiffRefs) (pos Position, why string, ok bool) {
	switch {
	case f.File == "" || f.Line < 1:
		return Position{}, "no file:line", false
	case f.Unverified:
		return Position{}, "its file:line is not in the change", false
	case !ch.added[f.File][f.Line]:
		return Position{}, "outside the merge request's changed lines", false
	case refs.HeadSHA == "" || refs.BaseSHA == "":
		return Position{}, "the merge request's diff commits are unknown", false
	}
	start := refs.StartSHA
	if start == "" {
		start = refs.BaseSHA
	}
	old := ch.oldPath[f.File]
	if old == "" {
		old = f.File
	}
	return Position{PositionType: "text", BaseSHA: refs.BaseSHA, StartSHA: start, HeadSHA: refs.HeadSHA,
		OldPath: old, NewPath: f.File, NewLine: f.Line}, "", true
}

// Marker is the hidden line that names fingerprint fp in a discussion:
// the same marker as a GitHub review thread's (reviewfmt owns it), so
// one rule reads a finding's thread back on either forge.
func Marker(fp string) string { return reviewfmt.ThreadMarker(fp) }

// MarkedFingerprint is the fingerprint a body's marker names, "" when it
// has none.
func MarkedFingerprint(body string) string { return reviewfmt.ThreadFingerprint(body) }
