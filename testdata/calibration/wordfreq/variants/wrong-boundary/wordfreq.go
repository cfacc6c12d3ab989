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
		return nil, errors.New("wordfreq: negative n")
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	return words[:n], nil
}
