package bestof

import "testing"

// TestKnown: the three strategies and nothing else, the default first.
func TestKnown(t *testing.T) {
	for s, want := range map[string]bool{"best": true, "rank": true, "merge": true, "": false, "Best": false, "vote": false} {
		if Known(s) != want {
			t.Errorf("Known(%q) = %v, want %v", s, !want, want)
		}
	}
	if Strategies[0] != Best || Min != 2 || Max != 5 {
		t.Errorf("default %q, bounds %d to %d; want best, 2 to 5 (spec §7.20)", Strategies[0], Min, Max)
	}
}
