// Package suggest finds the known name nearest a mistyped one, for the "did you mean" of every flag and settings key check.
package suggest

// MaxDistance is the largest edit distance a suggestion may be from what
// was typed: two edits catch a dropped, doubled or swapped letter without
// proposing unrelated names.
const MaxDistance = 2

// Nearest returns the name in known closest to typed by edit distance
// (insertions, deletions, substitutions and adjacent swaps), or "" when
// none is within MaxDistance or typed is itself known. Ties go to the
// earlier name in known, so the answer does not depend on map order.
func Nearest(typed string, known []string) string {
	best, bestD := "", MaxDistance+1
	for _, k := range known {
		if k == typed {
			return ""
		}
		if d := distance(typed, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the optimal-string-alignment edit distance of a and b,
// counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
