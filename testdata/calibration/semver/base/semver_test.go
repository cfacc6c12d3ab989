package semver

import "testing"

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1.2.3", "1.2.3", 0}, {"1.2.3", "1.2.4", -1}, {"1.10.0", "1.9.9", 1}, {"2.0.0", "1.99.99", 1},
	} {
		if got, err := Compare(tc.a, tc.b); err != nil || got != tc.want {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
	if _, err := Compare("1.2", "1.2.3"); err == nil {
		t.Error("1.2 accepted")
	}
}
