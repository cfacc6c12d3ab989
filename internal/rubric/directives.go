package rubric

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of a rubric's directives (spec §2.6): a few short lines, so that
// they stay a reviewable policy beside the criteria rather than a second
// prompt, and so that tune's edits to them stay small.
const (
	MaxDirectives   = 10
	MaxDirectiveLen = 300 // characters, not bytes
)

// stringList decodes a JSON array of strings; anything else yields nil,
// for Validate to report from the raw value.
func stringList(raw json.RawMessage) []string {
	var out []string
	if !isKind(raw, '[') || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// directivesProblem says why raw is not a usable "directives" value, or
// returns "". Each directive is one line of plain text: a control
// character (a newline among them) could lay out a section of the judge's
// prompt that the rubric does not have, and a repeated one would make
// tune's reword and remove edits ambiguous.
func directivesProblem(raw json.RawMessage) string {
	var items []json.RawMessage
	if !isKind(raw, '[') || json.Unmarshal(raw, &items) != nil {
		return "directives must be an array of strings, got " + compact(raw)
	}
	if len(items) > MaxDirectives {
		return fmt.Sprintf("directives has %d entries; at most %d", len(items), MaxDirectives)
	}
	seen := map[string]bool{}
	for i, item := range items {
		if why := DirectiveProblem(stringValue(item)); !isKind(item, '"') || why != "" {
			if !isKind(item, '"') {
				why = "must be a string, got " + compact(item)
			}
			return fmt.Sprintf("directives[%d] %s", i, why)
		}
		s := stringValue(item)
		if seen[s] {
			return fmt.Sprintf("directives[%d] repeats an earlier directive", i)
		}
		seen[s] = true
	}
	return ""
}

// DirectiveProblem says why s cannot be one directive, or returns "":
// tune checks a proposed directive with it before building a candidate.
func DirectiveProblem(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "is empty"
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case utf8.RuneCountInString(s) > MaxDirectiveLen:
		return fmt.Sprintf("is %d characters; at most %d", utf8.RuneCountInString(s), MaxDirectiveLen)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return fmt.Sprintf("must be one line of plain text (it holds %q)", r)
		}
	}
	return ""
}
