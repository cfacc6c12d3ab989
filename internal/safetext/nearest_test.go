package safetext

import (
	"strconv"
	"testing"
)

func TestNearest(t *testing.T) {
	keys := []string{"enabled", "tools", "skip_if_no_file_changes", "timeout_seconds", "mode", "max_fix_rounds", "model"}
	cases := []struct {
		typed, want string
		ok          bool
	}{
		{"enabeld", "enabled", true}, // a swap
		{"enable", "enabled", true},  // a deletion
		{"Enabled", "enabled", true}, // case only
		{"timeout_secs", "timeout_seconds", true},
		{"secs", "", false}, // too far
		{"timout_seconds", "timeout_seconds", true},
		{"mod", "mode", true},
		{"modle", "", false}, // mode and model both 1 away: no guess
		{"xyz", "", false},
		{"enabled", "", false}, // known: nothing to suggest
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := Nearest(c.typed, keys)
		if got != c.want || ok != c.ok {
			t.Errorf("Nearest(%q) = %q, %v; want %q, %v", c.typed, got, ok, c.want, c.ok)
		}
	}
	if got := DidYouMean("limt", []string{"limit", "json"}, func(s string) string { return "--" + s }); got != " (did you mean --limit?)" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzz", []string{"limit"}, strconv.Quote); got != "" {
		t.Errorf("DidYouMean = %q, want nothing", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"enabeld", "enabled", 1}, {"größe", "grösse", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
