// Package wordfreq counts words.
package wordfreq

import "strings"

// Count returns how often each whitespace-separated word occurs in text,
// lower-cased.
func Count(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[strings.ToLower(w)]++
	}
	return counts
}
