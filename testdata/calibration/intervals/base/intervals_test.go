package intervals

import "testing"

func TestOverlaps(t *testing.T) {
	if !Overlaps(Interval{1, 3}, Interval{2, 4}) || !Overlaps(Interval{1, 2}, Interval{2, 3}) {
		t.Error("overlapping intervals reported apart")
	}
	if Overlaps(Interval{1, 2}, Interval{3, 4}) {
		t.Error("disjoint intervals reported overlapping")
	}
}
