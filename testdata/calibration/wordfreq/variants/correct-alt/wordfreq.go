// Package wordfreq counts words.
package wordfreq

import (
	"errors"
	"sort"
	"strings"
)

// Count returns how often each whitespace-separated word occurs in text,
// lower-cased.
func Count(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[strings.ToLower(w)]++
	}
	return counts
}

// Top returns the n most frequent words, ties broken alphabetically.
func Top(counts map[string]int, n int) ([]string, error) {
	if n < 0 {
		return nil, errors.New("wordfreq: n must not be negative")
	}
	type wc struct {
		w string
		c int
	}
	all := make([]wc, 0, len(counts))
	for w, c := range counts {
		all = append(all, wc{w, c})
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].c > all[j].c || (all[i].c == all[j].c && all[i].w < all[j].w)
	})
	out := []string{}
	for _, x := range all[:min(n, len(all))] {
		out = append(out, x.w)
	}
	return out, nil
}
