package rubric

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Pattern is one entry of a criterion's must_include or must_avoid
// (spec §2.6): a literal, or with Regex a Go regular expression, matched
// case-insensitively with IgnoreCase. A plain JSON string is a literal
// matched exactly, the common case written shortest.
type Pattern struct {
	Text       string
	Regex      bool
	IgnoreCase bool
	re         *regexp.Regexp
}

// patternKeys are the keys a pattern object may have.
var patternKeys = []string{"pattern", "regex", "ignore_case"}

// Match reports whether s contains the pattern.
func (p Pattern) Match(s string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(s)
	case p.IgnoreCase:
		return strings.Contains(strings.ToLower(s), strings.ToLower(p.Text))
	}
	return strings.Contains(s, p.Text)
}

// String is the pattern as a message shows it: "literal" or /regex/,
// with "(any case)" after a case-insensitive one — in words, since a
// trailing i ("as an ai"i) read as a typo to users.
func (p Pattern) String() string {
	s := fmt.Sprintf("%q", p.Text)
	if p.Regex {
		s = "/" + p.Text + "/"
	}
	if p.IgnoreCase {
		s += " (any case)"
	}
	return s
}

// parsePatterns decodes a must_include or must_avoid value; a value that
// is not a list of patterns is a problem Validate reports (check 4), so
// a rubric is never silently weaker than written.
func parsePatterns(raw json.RawMessage, key string) ([]Pattern, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	var items []json.RawMessage
	if !isKind(raw, '[') || json.Unmarshal(raw, &items) != nil {
		return nil, key + " must be an array of strings or {pattern, regex, ignore_case} objects"
	}
	out := make([]Pattern, 0, len(items))
	for i, item := range items {
		p, why := parsePattern(item)
		if why != "" {
			return nil, fmt.Sprintf("%s[%d] %s", key, i, why)
		}
		out = append(out, p)
	}
	return out, ""
}

func parsePattern(item json.RawMessage) (Pattern, string) {
	var p Pattern
	if isKind(item, '"') {
		_ = json.Unmarshal(item, &p.Text)
	} else {
		if !isKind(item, '{') {
			return p, "must be a string or an object"
		}
		if unknown := unknownKeys(item, patternKeys, ""); len(unknown) > 0 {
			return p, strings.Join(unknown, ", ")
		}
		var o struct {
			Pattern    *string `json:"pattern"`
			Regex      bool    `json:"regex"`
			IgnoreCase bool    `json:"ignore_case"`
		}
		if err := json.Unmarshal(item, &o); err != nil || o.Pattern == nil {
			return p, "needs a string \"pattern\" (regex and ignore_case are booleans)"
		}
		p = Pattern{Text: *o.Pattern, Regex: o.Regex, IgnoreCase: o.IgnoreCase}
	}
	if p.Text == "" {
		return p, "is empty: it would match every answer"
	}
	if p.Regex {
		expr := p.Text
		if p.IgnoreCase {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return p, "invalid regular expression: " + err.Error()
		}
		p.re = re
	}
	return p, ""
}
