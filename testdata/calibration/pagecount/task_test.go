package pagecount

import "testing"

func TestPageCount(t *testing.T) {
	for _, tc := range []struct{ total, size, want int }{
		{0, 10, 0}, {1, 10, 1}, {10, 10, 1}, {11, 10, 2}, {20, 10, 2}, {21, 10, 3}, {5, 1, 5},
	} {
		got, err := PageCount(tc.total, tc.size)
		if err != nil || got != tc.want {
			t.Errorf("PageCount(%d, %d) = %d, %v; want %d", tc.total, tc.size, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ total, size int }{{10, 0}, {10, -1}, {-1, 10}} {
		if _, err := PageCount(tc.total, tc.size); err == nil {
			t.Errorf("PageCount(%d, %d): no error", tc.total, tc.size)
		}
	}
}
