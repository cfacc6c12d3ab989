package main

import (
	"slices"
	"testing"
)

// TestSplitCandidates: --candidates takes every argument after it up to
// the next flag ("-" is standard input, a candidate), in either form, and
// leaves the rest for the flag package.
func TestSplitCandidates(t *testing.T) {
	cases := []struct {
		args        []string
		files, rest []string
		seen        bool
	}{
		{[]string{"--candidates", "a", "b", "--question", "q"}, []string{"a", "b"}, []string{"--question", "q"}, true},
		{[]string{"--question", "q", "-candidates", "a", "-", "b"}, []string{"a", "-", "b"}, []string{"--question", "q"}, true},
		{[]string{"--candidates=a", "b", "--json"}, []string{"a", "b"}, []string{"--json"}, true},
		{[]string{"--candidates", "--question", "q"}, nil, []string{"--question", "q"}, true},
		{[]string{"--answer", "a", "--question", "q"}, nil, []string{"--answer", "a", "--question", "q"}, false},
		{[]string{"--candidates", "a", "--", "--candidates", "b"}, []string{"a"}, []string{"--", "--candidates", "b"}, true},
	}
	for _, c := range cases {
		files, rest, seen := splitCandidates(c.args)
		if !slices.Equal(files, c.files) || !slices.Equal(rest, c.rest) || seen != c.seen {
			t.Errorf("splitCandidates(%q) = %q, %q, %v; want %q, %q, %v", c.args, files, rest, seen, c.files, c.rest, c.seen)
		}
	}
}
