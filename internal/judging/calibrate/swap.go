package calibrate

import (
	"errors"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// caseFiles splits a case's diff into files with internal/git/unidiff (the
// parser behind the product's judge prompts), in reverse order when swap
// is set: the swap test of position bias. A plain unified diff without
// git's "diff --git" lines (`diff -u`, some review tools) gets them first.
func caseFiles(diff string, swap bool) ([]unidiff.File, error) {
	files := unidiff.Parse([]byte(withGitHeaders(diff)))
	if len(files) == 0 {
		return nil, errors.New("the diff changes no file")
	}
	if swap {
		files = unidiff.Reverse(files)
	}
	return files, nil
}

// withGitHeaders inserts a "diff --git a/X b/Y" line before every
// "--- a/X" / "+++ b/Y" pair of a diff that has none, so that it splits
// into files as git's own output does.
func withGitHeaders(diff string) string {
	if strings.HasPrefix(diff, "diff --git ") || strings.Contains(diff, "\ndiff --git ") {
		return diff
	}
	lines := strings.SplitAfter(diff, "\n")
	var b strings.Builder
	for i, l := range lines {
		if strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
			oldPath := side(l[4:], "a/")
			newPath := side(lines[i+1][4:], "b/")
			if oldPath == "" {
				oldPath = newPath
			}
			if newPath == "" {
				newPath = oldPath
			}
			b.WriteString("diff --git a/" + oldPath + " b/" + newPath + "\n")
		}
		b.WriteString(l)
	}
	return b.String()
}

// side is the path of a ---/+++ line without its prefix, timestamp or
// trailing newline; "" for /dev/null.
func side(s, prefix string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, prefix)
}
