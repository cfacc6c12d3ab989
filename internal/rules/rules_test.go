package rules

import (
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]bool{"strict": true, "majority": true, "unanimous": true, "meta_override": true, "Majority": false, "democracy": false, "": false,
		"any": true, "Any": false, "at_least_1": true, "at_least_2": true, "at_least_64": true, "at_least_65": false, "at_least_0": false,
		"at_least_02": false, "at_least_+2": false, "at_least_-1": false, "at_least_": false, "at_least_2x": false, "at_least": false} {
		if p, ok := ParsePolicy(s); ok != want || (ok && string(p) != s) {
			t.Errorf("ParsePolicy(%q) = %q, %v", s, p, ok)
		}
	}
	for s, want := range map[string]bool{"mean": true, "median": true, "min": true, "weighted_mean": true, "average": false, "MEAN": false} {
		if m, ok := ParseMethod(s); ok != want || (ok && string(m) != s) {
			t.Errorf("ParseMethod(%q) = %q, %v", s, m, ok)
		}
	}
}

// TestComparisons: equality within the tolerance meets a bound and does
// not exceed it, e.g. a dissent of 0.68 − 0.43 against a threshold 0.25.
func TestComparisons(t *testing.T) {
	d := 0.68 - 0.43 // 0.25000000000000006
	for _, tc := range []struct {
		a, b        float64
		atLeast, gt bool
	}{
		{d, 0.25, true, false},
		{0.75, 0.75, true, false},
		{0.75 - 1e-12, 0.75, true, false},
		{0.7499, 0.75, false, false},
		{0.2501, 0.25, true, true},
	} {
		if got := AtLeast(tc.a, tc.b); got != tc.atLeast {
			t.Errorf("AtLeast(%v, %v) = %v", tc.a, tc.b, got)
		}
		if got := Above(tc.a, tc.b); got != tc.gt {
			t.Errorf("Above(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}

func TestEveryReasonHasAMeaning(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Reasons {
		m := r.Meaning()
		if m == string(r) || m == "" || seen[m] {
			t.Errorf("reason %q: meaning %q", r, m)
		}
		seen[m] = true
	}
	if Reason("flaky").Meaning() != "flaky" {
		t.Error("an unknown reason must read as itself")
	}
}

func TestRoundLeavesNoBinaryNoise(t *testing.T) {
	for in, want := range map[float64]string{
		0.8925000000000002: "0.8925", 0.9000000000000002: "0.9", 0.7499999999999999: "0.75",
		0.1 + 0.2: "0.3", 0.123456789012: "0.123456789", 0: "0", 1: "1",
	} {
		if got := strconv.FormatFloat(Round(in), 'g', -1, 64); got != want {
			t.Errorf("Round(%v) = %s, want %s", in, got, want)
		}
	}
}
