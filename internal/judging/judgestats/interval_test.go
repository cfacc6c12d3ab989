package judgestats

import (
	"math"
	"testing"
)

// Known values: the Wilson score interval with z = 1.959964, worked with
// the textbook formula (centre (p + z²/2n)/(1 + z²/n), half-width
// z·√(p(1−p)/n + z²/4n²)/(1 + z²/n)).
func TestWilsonKnownValues(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.277533},
		{5, 10, 0.236593, 0.763407},
		{10, 10, 0.722467, 1},
		{42, 42, 0.916201, 1},
		{21, 42, 0.355260, 0.644740},
		{40, 80, 0.392974, 0.607026},
		{1, 1, 0.206549, 1},
	}
	for _, tc := range tests {
		iv := Wilson(tc.k, tc.n)
		if iv == nil || math.Abs(iv.Low-tc.low) > 1e-6 || math.Abs(iv.High-tc.high) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = %+v, want [%.6f, %.6f]", tc.k, tc.n, iv, tc.low, tc.high)
		}
	}
	for _, bad := range [][2]int{{0, 0}, {-1, 5}, {6, 5}} {
		if iv := Wilson(bad[0], bad[1]); iv != nil {
			t.Errorf("Wilson(%d, %d) = %+v, want nil", bad[0], bad[1], iv)
		}
	}
}

func TestBootstrapKappa(t *testing.T) {
	c := Confusion{RejectFailed: 8, RejectPassed: 2, AcceptFailed: 3, AcceptPassed: 7} // κ = 0.5
	iv := BootstrapKappa(c)
	if iv == nil {
		t.Fatal("no interval for a defined κ")
	}
	// Deterministic: the same counts give the same interval.
	if again := BootstrapKappa(c); *again != *iv {
		t.Errorf("two runs differ: %+v and %+v", iv, again)
	}
	// It brackets the estimate, stays within [−1, 1], and is wide at
	// n = 20 (the normal approximation's ±1.96·SE is about ±0.38).
	if !(iv.Low < 0.5 && 0.5 < iv.High) || iv.Low < -1 || iv.High > 1 || iv.Width() < 0.5 || iv.Width() > 1 {
		t.Errorf("interval %+v does not look like κ = 0.5 at n = 20", iv)
	}
	// Four times the cases, same mix: about half the width.
	big := BootstrapKappa(Confusion{RejectFailed: 32, RejectPassed: 8, AcceptFailed: 12, AcceptPassed: 28})
	if r := big.Width() / iv.Width(); r < 0.4 || r > 0.6 {
		t.Errorf("width at n = 80 is %.2f of the width at n = 20, want about 0.5", r)
	}
	// Perfect agreement: every resample is κ = 1.
	if p := BootstrapKappa(Confusion{RejectFailed: 5, AcceptPassed: 5}); p == nil || p.Low != 1 || p.High != 1 {
		t.Errorf("perfect agreement: %+v", p)
	}
	// Undefined κ, undefined interval.
	for _, u := range []Confusion{{}, {AcceptPassed: 4, RejectPassed: 3}, {AcceptPassed: 4, AcceptFailed: 3}} {
		if got := BootstrapKappa(u); got != nil {
			t.Errorf("BootstrapKappa(%+v) = %+v, want nil", u, got)
		}
	}
}

func TestKappaNAWhenOneSideNeverVaries(t *testing.T) {
	for name, c := range map[string]Confusion{
		"every decision pass": {RejectPassed: 3, AcceptPassed: 3},
		"every decision fail": {RejectFailed: 3, AcceptFailed: 3},
		"every label accept":  {AcceptFailed: 2, AcceptPassed: 3},
		"every label reject":  {RejectFailed: 2, RejectPassed: 3},
	} {
		if k := Kappa(c); k != nil {
			t.Errorf("%s: κ = %v, want n/a", name, *k)
		}
	}
}

func TestRank(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	// Disjoint intervals rank.
	if r := Rank(f(0.9), f(0.4), &Interval{0.8, 0.95}, &Interval{0.3, 0.5}, 40); !r.Separated || r.Better != "a" || r.MoreCases != nil {
		t.Errorf("disjoint: %+v", r)
	}
	if r := Rank(f(0.4), f(0.9), &Interval{0.3, 0.5}, &Interval{0.8, 0.95}, 40); !r.Separated || r.Better != "b" {
		t.Errorf("disjoint, b better: %+v", r)
	}
	// Overlap: a = .6 [.5, .7], b = .5 [.4, .6]; facing half-widths .1 and
	// .1 over a gap of .1: n·(0.2/0.1)² = 4n, so 3n more cases.
	r := Rank(f(0.6), f(0.5), &Interval{0.5, 0.7}, &Interval{0.4, 0.6}, 42)
	if r.Separated || r.MoreCases == nil || *r.MoreCases != 126 {
		t.Errorf("overlap: %+v, want 126 more cases", r)
	}
	// Equal estimates: no number of cases separates them.
	if r := Rank(f(0.5), f(0.5), &Interval{0.4, 0.6}, &Interval{0.3, 0.7}, 42); r.Separated || r.MoreCases != nil {
		t.Errorf("equal: %+v", r)
	}
	// An undefined side cannot be ranked.
	if r := Rank(nil, f(0.5), nil, &Interval{0.3, 0.7}, 42); r.Separated || r.MoreCases != nil {
		t.Errorf("undefined: %+v", r)
	}
}
