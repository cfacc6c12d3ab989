package rubric

import (
	"fmt"
	"path"
	"strings"
)

// Glob selects files of a change by their slash-separated path from the
// worktree root (spec §2.11). A pattern without '/' matches a file's base
// name at any depth ("*.go"); a pattern with '/' matches the whole path,
// segment by segment, where a segment "**" matches any number of
// directories (zero included) and every other segment is a path.Match
// pattern ("*", "?", "[a-z]", '\' escapes). The zero Glob matches every
// file.
type Glob struct {
	pattern  string
	segments []string
	base     bool
}

// ParseGlob checks a pattern; a malformed class ("[a-") is an error.
func ParseGlob(pattern string) (Glob, error) {
	g := Glob{pattern: pattern, base: !strings.Contains(pattern, "/")}
	g.segments = strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	for _, seg := range g.segments {
		if seg == "" {
			return Glob{}, fmt.Errorf("glob %q has an empty segment", pattern)
		}
		if _, err := path.Match(seg, ""); err != nil {
			return Glob{}, fmt.Errorf("glob %q: segment %q: %w", pattern, seg, err)
		}
	}
	return g, nil
}

// String is the pattern as written ("" for the zero Glob).
func (g Glob) String() string { return g.pattern }

// Match reports whether the slash-separated path p is selected.
func (g Glob) Match(p string) bool {
	if g.pattern == "" {
		return true
	}
	if g.base {
		ok, _ := path.Match(g.pattern, path.Base(p))
		return ok
	}
	return matchSegments(g.segments, strings.Split(p, "/"))
}

// matchSegments matches pattern segments against path segments, "**"
// standing for zero or more path segments.
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
