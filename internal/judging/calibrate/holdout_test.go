package calibrate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// Known values: the first 8 bytes of SHA-256(id) as a fraction of 2⁶⁴,
// worked with python3's hashlib (e.g. "bad-caught" → 0.1659, "a" → 0.7914).
func TestHeldOutSplitByID(t *testing.T) {
	tests := []struct {
		id       string
		fraction float64
		want     bool
	}{
		{"bad-caught", 0.5, true},     // 0.1659
		{"bad-caught", 0.16, false},   // just above
		{"good-accepted", 0.5, false}, // 0.6300
		{"good-accepted", 0.63, true},
		{"a", 0.79, false}, // 0.7914
		{"a", 0.80, true},
		{"c", 0.2, true},  // 0.1816
		{"b", 0.2, false}, // 0.2427
	}
	for _, tc := range tests {
		if got := heldOut(tc.id, tc.fraction); got != tc.want {
			t.Errorf("heldOut(%q, %v) = %v, want %v", tc.id, tc.fraction, got, tc.want)
		}
	}
}

func TestCheckHoldoutRefusesAnEmptyPart(t *testing.T) {
	cases := []Case{{ID: "good-accepted"}, {ID: "bad-caught"}, {ID: "bad-passed"}}
	for _, tc := range []struct {
		fraction float64
		wantErr  string
	}{
		{0, ""},
		{0.5, ""},
		{0.1, "--holdout 0.1 puts 0 of the 3 case(s) in the held-out part"},
		{0.95, "--holdout 0.95 puts 3 of the 3 case(s) in the held-out part"},
	} {
		err := checkHoldout(cases, tc.fraction)
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("checkHoldout(%v) = %v, want %q", tc.fraction, err, tc.wantErr)
		}
	}
}

// synthetic gives n cases, accepts scored 0.8 and rejects 0.3 except
// every seventh case of each, which is scored on the wrong side.
func synthetic(n int) ([]judgestats.Outcome, []string) {
	var outs []judgestats.Outcome
	var ids []string
	for i := 0; i < n; i++ {
		label, s := judgestats.Accept, 0.8
		if i%2 == 1 {
			label, s = judgestats.Reject, 0.3
		}
		if i%7 == 0 {
			s = 1.1 - s
		}
		score := s
		outs = append(outs, judgestats.Outcome{Label: label, Score: &score})
		ids = append(ids, fmt.Sprintf("case-%d", i))
	}
	return outs, ids
}

func TestSplitSweepPicksOnOnePartAndMeasuresOnTheOther(t *testing.T) {
	outs, ids := synthetic(80)
	h := splitSweep(outs, ids, 0.5, 0.75)
	if h.InSample == nil || h.HeldOut == nil || h.TooSmall != "" {
		t.Fatalf("holdout = %+v", h)
	}
	if h.TuneCases+h.HeldOutCases != 80 || len(h.HeldOutIDs) != h.HeldOutCases {
		t.Errorf("parts %d + %d (ids %d), want 80 in all", h.TuneCases, h.HeldOutCases, len(h.HeldOutIDs))
	}
	for _, id := range h.HeldOutIDs {
		if !heldOut(id, 0.5) {
			t.Errorf("%s is in the held-out part but hashes outside it", id)
		}
	}
	// The pick lies between the two score levels, and the held-out figures
	// are those of that threshold on the held-out cases alone.
	if th := h.InSample.Threshold; th <= 0.3 || th > 0.8 {
		t.Errorf("picked %v, want a threshold in (0.3, 0.8]", th)
	}
	var held []judgestats.Outcome
	for i, o := range outs {
		if heldOut(ids[i], 0.5) {
			held = append(held, o)
		}
	}
	want := judgestats.AtThreshold(held, h.InSample.Threshold)
	if *want.Kappa != *h.HeldOut.Kappa || h.HeldOut.Threshold != h.InSample.Threshold {
		t.Errorf("held-out κ %v at %v, want %v", *h.HeldOut.Kappa, h.HeldOut.Threshold, *want.Kappa)
	}
	if h.Versus == nil {
		t.Error("no ranking of the pick against the configured threshold")
	}
}

func TestSplitSweepSaysWhenTheHeldOutPartIsTooSmall(t *testing.T) {
	outs, ids := synthetic(12)
	h := splitSweep(outs, ids, 0.3, 0.75)
	if !strings.Contains(h.TooSmall, "at least 5 of each are needed") {
		t.Errorf("too small = %q", h.TooSmall)
	}
	one := 0.9
	h = splitSweep([]judgestats.Outcome{{Label: judgestats.Accept, Score: &one}}, []string{"good-accepted"}, 0.5, 0.75)
	if h.InSample != nil || !strings.Contains(h.TooSmall, "no threshold could be picked") {
		t.Errorf("one-label tuning part: %+v", h)
	}
}
