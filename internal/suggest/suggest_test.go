package suggest

import "testing"

func TestNearest(t *testing.T) {
	known := []string{"limit", "json", "format", "since", "outcome", "enabled", "verbose"}
	for _, tc := range []struct{ typed, want string }{
		{"limt", "limit"},      // dropped letter
		{"limmit", "limit"},    // doubled letter
		{"jsno", "json"},       // swapped letters
		{"enabeld", "enabled"}, // swap in a settings key
		{"verbos", "verbose"},
		{"outcomes", "outcome"},
		{"xyzzy", ""}, // nothing close
		{"limit", ""}, // already known
		{"", ""},      // nothing typed: every name is more than 2 edits away
		{"sinc", "since"},
	} {
		if got := Nearest(tc.typed, known); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

func TestNearestPrefersEarlierOnTies(t *testing.T) {
	if got := Nearest("ab", []string{"ax", "ay"}); got != "ax" {
		t.Errorf("Nearest = %q, want the first of equally near names", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"café", "cafe", 1}, {"limit", "limit", 0},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
