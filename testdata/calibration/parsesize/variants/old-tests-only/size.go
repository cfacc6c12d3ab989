// Package parsesize parses human-written byte sizes such as "10KB".
package parsesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse turns "<integer><unit>" into a number of bytes. Units: B, KB, MB, GB.
func Parse(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 {
		return 0, fmt.Errorf("parsesize: %q has no number", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parsesize: %q: %w", s, err)
	}
	switch s[i:] {
	case "B":
		return n, nil
	case "KB":
		return n * 1024, nil
	case "MB":
		return n * 1024 * 1024, nil
	case "GB":
		return n * 1024 * 1024 * 1024, nil
	}
	return 0, fmt.Errorf("parsesize: %q has an unknown unit", s)
}
