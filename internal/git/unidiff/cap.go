package unidiff

import "strings"

// Cap bounds a stored `git diff` in total, not only per file: it keeps
// whole files, in git's order, while their sum stays within max bytes,
// leaving out any file that would not fit (a later, smaller one may still),
// and returns the kept text and the paths left out. Text before the first
// file header is kept. A file is never cut inside, so what is kept still
// parses and applies.
func Cap(diff string, max int) (kept string, leftOut []string) {
	if len(diff) <= max {
		return diff, nil
	}
	var b strings.Builder
	parts := splitFiles(diff)
	for i, part := range parts {
		if i > 0 && !strings.HasPrefix(part, "diff --git ") {
			continue
		}
		if b.Len()+len(part) <= max {
			b.WriteString(part)
			continue
		}
		if i == 0 && !strings.HasPrefix(part, "diff --git ") {
			continue // a preamble that does not fit is not a file
		}
		line, _, _ := strings.Cut(part, "\n")
		oldPath, newPath := gitLinePaths(line)
		if newPath == "" {
			newPath = oldPath
		}
		leftOut = append(leftOut, newPath)
	}
	return b.String(), leftOut
}

// splitFiles cuts a diff before each line that starts a file ("diff
// --git"); hunk lines always begin with ' ', '+', '-' or '\', so such a
// line is never inside a hunk. The first part is the preamble (possibly
// empty) unless the diff starts with a header.
func splitFiles(diff string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(diff); {
		j := strings.Index(diff[i:], "\ndiff --git ")
		if j < 0 {
			break
		}
		cut := i + j + 1
		parts = append(parts, diff[start:cut])
		start, i = cut, cut
	}
	return append(parts, diff[start:])
}
