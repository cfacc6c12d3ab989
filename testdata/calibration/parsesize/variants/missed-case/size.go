// Package parsesize parses human-written byte sizes such as "10KB".
package parsesize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var units = map[string]int64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}

// Parse turns "<integer><unit>" into a number of bytes. Units: B, KB, MB, GB.
func Parse(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '-' })
	if i <= 0 {
		return 0, fmt.Errorf("parsesize: %q has no number", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parsesize: %q: %w", s, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("parsesize: %q is negative", s)
	}
	mult, ok := units[s[i:]]
	if !ok {
		return 0, fmt.Errorf("parsesize: %q has an unknown unit", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("parsesize: %q does not fit in 64 bits", s)
	}
	return n * mult, nil
}
