// Package semver compares MAJOR.MINOR.PATCH[-PRERELEASE] version strings.
package semver

import (
	"fmt"
	"strconv"
	"strings"
)

type version struct {
	nums [3]int
	pre  string
}

// Compare returns -1, 0 or +1 as a is older than, equal to or newer than b.
func Compare(a, b string) (int, error) {
	va, err := parse(a)
	if err != nil {
		return 0, err
	}
	vb, err := parse(b)
	if err != nil {
		return 0, err
	}
	for i := range va.nums {
		if va.nums[i] != vb.nums[i] {
			if va.nums[i] < vb.nums[i] {
				return -1, nil
			}
			return 1, nil
		}
	}
	switch {
	case va.pre == vb.pre:
		return 0, nil
	case va.pre == "":
		return 1, nil
	case vb.pre == "":
		return -1, nil
	}
	return strings.Compare(va.pre, vb.pre), nil
}

func parse(v string) (version, error) {
	var out version
	core, pre, _ := strings.Cut(v, "-")
	out.pre = pre
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return out, fmt.Errorf("semver: %q is not MAJOR.MINOR.PATCH", v)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, fmt.Errorf("semver: %q: part %q is not a number", v, p)
		}
		out.nums[i] = n
	}
	return out, nil
}
