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
	for _, iv := range in {
		if iv.Start > iv.End {
			return nil, fmt.Errorf("interval [%d,%d] ends before it starts", iv.Start, iv.End)
		}
	}
	sort.Slice(in, func(i, j int) bool { return in[i].Start < in[j].Start })
	var out []Interval
	for _, iv := range in {
		if n := len(out); n > 0 && iv.Start <= out[n-1].End {
			if iv.End > out[n-1].End {
				out[n-1].End = iv.End
			}
			continue
		}
		out = append(out, iv)
	}
	return out, nil
}
