package rules

import "testing"

func TestNum(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0.1 + 0.2 + 0.6, "0.9"}, // 0.8999999999999999
		{0.4 + 0.2 + 0.2 + 0.1, "0.9"},
		{0.9000000000000002, "0.9"},
		{0.75, "0.75"},
		{0.825, "0.825"},
		{1, "1"},
		{0, "0"},
		{-0.5, "-0.5"},
		{1234567, "1234567"}, // no exponent
		{0.00001, "0.00001"}, // a typed value reads as typed
		{1.00001, "1.00001"},
		{1e-12, "0"},
		{60, "60"},
	} {
		if got := Num(tc.in); got != tc.want {
			t.Errorf("Num(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
