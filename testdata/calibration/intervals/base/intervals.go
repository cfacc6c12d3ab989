// Package intervals works with closed integer intervals.
package intervals

// Interval is the closed range [Start, End].
type Interval struct{ Start, End int }

// Overlaps reports whether a and b share at least one point.
func Overlaps(a, b Interval) bool {
	return a.Start <= b.End && b.Start <= a.End
}
