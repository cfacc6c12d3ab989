package intervals

import (
	"reflect"
	"testing"
)

func TestMerge(t *testing.T) {
	for _, tc := range []struct {
		in, want []Interval
	}{
		{[]Interval{}, []Interval{}},
		{[]Interval{{1, 3}, {2, 4}}, []Interval{{1, 4}}},
		{[]Interval{{1, 2}, {2, 3}}, []Interval{{1, 3}}},
		{[]Interval{{1, 2}, {4, 5}}, []Interval{{1, 2}, {4, 5}}},
		{[]Interval{{5, 6}, {1, 2}, {2, 5}}, []Interval{{1, 6}}},
		{[]Interval{{1, 3}, {2, 4}, {3, 5}, {9, 9}}, []Interval{{1, 5}, {9, 9}}},
		{[]Interval{{1, 10}, {2, 3}}, []Interval{{1, 10}}},
	} {
		in := append([]Interval{}, tc.in...)
		got, err := Merge(in)
		if err != nil || got == nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Merge(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if !reflect.DeepEqual(in, tc.in) {
			t.Errorf("Merge modified its input: %v", in)
		}
	}
	if _, err := Merge([]Interval{{1, 2}, {5, 3}}); err == nil {
		t.Error("an interval with start > end was accepted")
	}
}
