// Package intervals works with closed integer intervals.
package intervals

import (
	"fmt"
	"sort"
)

// Interval is the closed range [Start, End].
type Interval struct{ Start, End int }

// Overlaps reports whether a and b share at least one point.
func Overlaps(a, b Interval) bool {
	return a.Start <= b.End && b.Start <= a.End
}

// Merge merges overlapping or touching intervals, sorted by start.
func Merge(in []Interval) ([]Interval, error) {
	sorted := append([]Interval(nil), in...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	merged := make([]Interval, 0, len(sorted))
	for i, cur := range sorted {
		if cur.Start > cur.End {
			return nil, fmt.Errorf("intervals: bad interval %d: %v", i, cur)
		}
		last := len(merged) - 1
		if last >= 0 && Overlaps(merged[last], cur) {
			merged[last].End = max(merged[last].End, cur.End)
		} else {
			merged = append(merged, cur)
		}
	}
	return merged, nil
}
