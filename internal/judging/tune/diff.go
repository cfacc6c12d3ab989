package tune

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Pretty is the surface as an indented rubric object with its keys in
// order (as an edited surface is encoded): the file --write writes, and
// the text its diff compares, so that only what an edit changed differs.
func (s Surface) Pretty() string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(s.Raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(s.Raw) + "\n"
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(s.Raw) + "\n"
	}
	return string(b) + "\n"
}

// Diff is a line diff of two surfaces' Pretty forms, each line marked
// " ", "-" or "+", under "--- current" and "+++ candidate" headers.
// Rubrics are a few dozen lines, so the quadratic LCS is fine.
func Diff(from, to Surface) string {
	a := strings.Split(strings.TrimSuffix(from.Pretty(), "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(to.Pretty(), "\n"), "\n")
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	out.WriteString("--- current\n+++ candidate\n")
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString(" " + a[i] + "\n")
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			// Removals before additions, as diff(1) prints a change.
			out.WriteString("-" + a[i] + "\n")
			i++
		default:
			out.WriteString("+" + b[j] + "\n")
			j++
		}
	}
	return out.String()
}
