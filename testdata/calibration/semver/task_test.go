package semver

import "testing"

func TestComparePrerelease(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1.2.3-rc", "1.2.3", -1}, {"1.2.3", "1.2.3-rc", 1}, {"1.2.3-alpha", "1.2.3-beta", -1},
		{"1.2.3-beta", "1.2.3-beta", 0}, {"1.2.4-alpha", "1.2.3", 1}, {"v1.2.3", "1.2.3", 0},
		{"v2.0.0-rc.1", "v1.9.0", 1},
	} {
		if got, err := Compare(tc.a, tc.b); err != nil || got != tc.want {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
	for _, bad := range []string{"1.2-rc", "1.x.3-rc", "vv1.2.3", "1.2.3.4"} {
		if _, err := Compare(bad, "1.0.0"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
