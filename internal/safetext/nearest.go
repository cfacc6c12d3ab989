package safetext

import (
	"fmt"
	"strings"
)

// Nearest returns the word of known closest to typed, for a "did you mean"
// hint after a mistyped settings key or flag: the one at the smallest edit
// distance (insertions, deletions, substitutions and swaps of neighbours,
// ignoring case), if that distance is at most a third of typed's length
// (at least 1) and no other word is as close. A word that differs only in
// case is always near.
func Nearest(typed string, known []string) (string, bool) {
	limit := max(1, len([]rune(typed))/3)
	best, bestDist, tie := "", limit+1, false
	for _, k := range known {
		d := editDistance(strings.ToLower(typed), strings.ToLower(k))
		switch {
		case d < bestDist:
			best, bestDist, tie = k, d, false
		case d == bestDist && k != best:
			tie = true
		}
	}
	if best == "" || tie || best == typed {
		return "", false
	}
	return best, true
}

// DidYouMean is the hint Nearest gives, worded once: ` (did you mean
// "enabled"?)`, or "" when no known word is near. quote formats the word
// (a key as %q, a flag as --name).
func DidYouMean(typed string, known []string, quote func(string) string) string {
	if k, ok := Nearest(typed, known); ok {
		return fmt.Sprintf(" (did you mean %s?)", quote(k))
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b
// (Levenshtein plus the swap of two neighbouring characters, the commonest
// typo), over runes.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
