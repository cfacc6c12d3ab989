// Package intervals works with closed integer intervals.
package intervals

import (
	"fmt"
)

// Interval is the closed range [Start, End].
type Interval struct{ Start, End int }

// Overlaps reports whether a and b share at least one point.
func Overlaps(a, b Interval) bool {
	return a.Start <= b.End && b.Start <= a.End
}

// Merge merges overlapping or touching intervals.
func Merge(in []Interval) ([]Interval, error) {
	out := []Interval{}
	for _, iv := range in {
		if iv.Start > iv.End {
			return nil, fmt.Errorf("interval [%d,%d] ends before it starts", iv.Start, iv.End)
		}
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
