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

// Merge merges overlapping intervals, sorted by start.
func Merge(in []Interval) ([]Interval, error) {
	s := make([]Interval, len(in))
	copy(s, in)
	for _, iv := range s {
		if iv.Start > iv.End {
			return nil, fmt.Errorf("interval [%d,%d] ends before it starts", iv.Start, iv.End)
		}
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Start < s[j].Start })
	out := []Interval{}
	for _, iv := range s {
		if n := len(out); n > 0 && iv.Start < out[n-1].End {
			if iv.End > out[n-1].End {
				out[n-1].End = iv.End
			}
			continue
		}
		out = append(out, iv)
	}
	return out, nil
}
