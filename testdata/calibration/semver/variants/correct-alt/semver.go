// Package semver compares MAJOR.MINOR.PATCH[-PRERELEASE] version strings.
package semver

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Compare returns -1, 0 or +1 as a is older than, equal to or newer than b.
func Compare(a, b string) (int, error) {
	na, preA, hasA, err := split(a)
	if err != nil {
		return 0, err
	}
	nb, preB, hasB, err := split(b)
	if err != nil {
		return 0, err
	}
	for i := 0; i < 3; i++ {
		if c := cmp.Compare(na[i], nb[i]); c != 0 {
			return c, nil
		}
	}
	switch {
	case hasA && hasB:
		return cmp.Compare(preA, preB), nil
	case hasA:
		return -1, nil // a pre-release comes before its release
	case hasB:
		return 1, nil
	}
	return 0, nil
}

func split(v string) (nums [3]int, pre string, hasPre bool, err error) {
	s, _ := strings.CutPrefix(v, "v")
	core, pre, hasPre := strings.Cut(s, "-")
	fields := strings.Split(core, ".")
	if len(fields) != 3 {
		return nums, "", false, fmt.Errorf("semver: bad version %q", v)
	}
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nums, "", false, fmt.Errorf("semver: bad version %q", v)
		}
		nums[i] = n
	}
	return nums, pre, hasPre, nil
}
