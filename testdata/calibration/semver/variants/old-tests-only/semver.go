// Package semver compares MAJOR.MINOR.PATCH version strings.
package semver

import (
	"fmt"
	"strconv"
	"strings"
)

// Compare returns -1, 0 or +1 as a is older than, equal to or newer than b.
// A leading "v" and a pre-release suffix are allowed.
func Compare(a, b string) (int, error) {
	pa, err := parse(a)
	if err != nil {
		return 0, err
	}
	pb, err := parse(b)
	if err != nil {
		return 0, err
	}
	for i := range pa {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1, nil
			}
			return 1, nil
		}
	}
	return 0, nil
}

func parse(v string) ([3]int, error) {
	var out [3]int
	core, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return out, fmt.Errorf("semver: %q is not MAJOR.MINOR.PATCH", v)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, fmt.Errorf("semver: %q: part %q is not a number", v, p)
		}
		out[i] = n
	}
	return out, nil
}
