// Package parsesize parses human-written byte sizes such as "10KB".
package parsesize

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Parse turns "<integer><unit>" into a number of bytes. Units: B, KB, MB,
// GB, in any letter case.
func Parse(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	var shift uint
	switch {
	case strings.HasSuffix(s, "KB"):
		shift, s = 10, strings.TrimSuffix(s, "KB")
	case strings.HasSuffix(s, "MB"):
		shift, s = 20, strings.TrimSuffix(s, "MB")
	case strings.HasSuffix(s, "GB"):
		shift, s = 30, strings.TrimSuffix(s, "GB")
	case strings.HasSuffix(s, "B"):
		s = strings.TrimSuffix(s, "B")
	default:
		return 0, errors.New("parsesize: unknown unit")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parsesize: %w", err)
	}
	if n < 0 {
		return 0, errors.New("parsesize: negative size")
	}
	v := n << shift
	if v>>shift != n || v < 0 {
		return 0, errors.New("parsesize: size overflows int64")
	}
	return v, nil
}
