// Package bestof names how several candidate answers to one question are
// chosen between — the strategies and how many candidates a set may hold —
// for `judge --candidates`, the session that judges a set and the MCP
// verify tool, so that each refuses the same sets before anything runs.
package bestof

// The strategies (spec §7.20).
const (
	Best  = "best"
	Rank  = "rank"
	Merge = "merge"
)

// Strategies lists the strategies, the default first.
var Strategies = []string{Best, Rank, Merge}

// Min and Max bound a set: fewer than two is one answer, and every
// candidate is judged by the whole jury, and every pair of accepted ones
// twice more, so the cost grows with the square of the set.
const (
	Min = 2
	Max = 5
)

// Known reports whether s is a strategy.
func Known(s string) bool {
	for _, v := range Strategies {
		if v == s {
			return true
		}
	}
	return false
}
