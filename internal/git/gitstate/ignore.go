package gitstate

import (
	"path"
	"strings"
)

// ignorePattern is one line of a .gitignore (or info/exclude, or the
// global excludes file) of the exact subset the fast path evaluates the way
// git does (gitignore(5)): a literal name, "*" followed by a literal
// suffix, or a literal path anchored at the file's directory, each
// optionally directory-only (a trailing "/"). Every other line (negation,
// an escape, other wildcards, a trailing space, a CR) makes the whole
// proof unsupported, so that git decides.
type ignorePattern struct {
	base     string // directory of the file, relative to the root ("" at the top)
	text     string // the name, suffix or anchored path
	suffix   bool   // "*" + text: any name ending in text
	anchored bool   // text is a path relative to base
	dirOnly  bool
}

// parseIgnore reads one ignore file's patterns, which apply below base.
func parseIgnore(data []byte, base string) ([]ignorePattern, error) {
	var out []ignorePattern
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.ContainsAny(line, "\r\\!") || strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return nil, errUnsupported
		}
		p := ignorePattern{base: base}
		if t, ok := strings.CutSuffix(line, "/"); ok {
			p.dirOnly, line = true, t
		}
		if t, ok := strings.CutPrefix(line, "/"); ok {
			p.anchored, line = true, t
		}
		if strings.Contains(line, "/") {
			p.anchored = true
		}
		if t, ok := strings.CutPrefix(line, "*"); ok && !p.anchored {
			p.suffix, line = true, t
		}
		if (line == "" && !p.suffix) || strings.ContainsAny(line, "*?[") || strings.HasPrefix(line, "/") ||
			strings.HasSuffix(line, "/") || strings.Contains(line, "//") {
			return nil, errUnsupported
		}
		for _, el := range strings.Split(line, "/") {
			if el == "." || el == ".." {
				return nil, errUnsupported
			}
		}
		p.text = line
		out = append(out, p)
	}
	return out, nil
}

// match reports whether the pattern ignores rel (slash-separated, relative
// to the root), whose last element is name.
func (p ignorePattern) match(rel, name string, isDir bool) bool {
	switch {
	case p.dirOnly && !isDir:
		return false
	case p.anchored:
		return rel == path.Join(p.base, p.text)
	case p.suffix:
		return strings.HasSuffix(name, p.text)
	}
	return name == p.text
}

// ignoredBy reports whether any of patterns ignores rel.
func ignoredBy(patterns []ignorePattern, rel, name string, isDir bool) bool {
	for _, p := range patterns {
		if p.match(rel, name, isDir) {
			return true
		}
	}
	return false
}
