package verdict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Usable reports whether raw is a JSON number x with 0 ≤ x ≤ 1 and returns
// it. This is the spec's "usable score" and "readable criterion score"
// rule: null, strings, booleans and out-of-range numbers such as 95 or -5 are
// all unusable, and nothing is ever repaired into range.
func Usable(raw json.RawMessage) (float64, bool) {
	f, ok := number(raw)
	if !ok || f < 0 || f > 1 {
		return 0, false
	}
	if f == 0 {
		// -0 is in range; report it as +0 so nobody prints "-0".
		f = 0
	}
	return f, true
}

// number parses raw as a JSON number literal. json.Unmarshal into a float64
// cannot be used for this, because it silently accepts null.
func number(raw json.RawMessage) (float64, bool) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) || !json.Valid(b) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// Kind names the JSON type of raw ("object", "array", "string", "boolean",
// "null", "number", or "nothing" when empty) for messages and type checks;
// raw must be valid JSON.
func Kind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// isNull reports whether raw is the JSON literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// isTrue reports whether raw is exactly the JSON literal true; the string
// "true" and the number 1 do not count, which is what keeps a judge's or
// meta-judge's sloppy output from approving anything.
func isTrue(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "true"
}

// isBool reports whether raw is a JSON boolean literal.
func isBool(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s == "true" || s == "false"
}

// asString returns raw's value when it is a JSON string.
func asString(raw json.RawMessage) (string, bool) {
	if Kind(raw) != "string" {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// asCount returns raw as a non-negative integer; 3.0 counts as 3 because
// JSON does not distinguish the two.
func asCount(raw json.RawMessage) (*int, bool) {
	f, ok := number(raw)
	if !ok || f < 0 || f != math.Trunc(f) || f > 1<<53 {
		return nil, false
	}
	n := int(f)
	return &n, true
}

// asUnit returns raw as a *float64 when it is a number in [0,1].
func asUnit(raw json.RawMessage) (*float64, bool) {
	f, ok := Usable(raw)
	if !ok {
		return nil, false
	}
	return &f, true
}

// asStrings keeps the string items of a JSON array and drops the rest; ok is
// false when raw is not an array at all.
func asStrings(raw json.RawMessage) ([]string, bool) {
	if Kind(raw) != "array" {
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := asString(it); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// asObject decodes raw when it is a JSON object, keeping member values raw.
// An empty object yields an empty, non-nil map.
func asObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	if Kind(raw) != "object" {
		return nil, false
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	return m, true
}

// brief renders raw compactly for a warning, cut to a readable length so a
// model's runaway output cannot flood stderr.
func brief(raw json.RawMessage) string {
	var buf bytes.Buffer
	s := string(bytes.TrimSpace(raw))
	if json.Compact(&buf, raw) == nil {
		s = buf.String()
	}
	const limit = 60
	if len(s) <= limit {
		return s
	}
	return safetext.Head(s, limit) + "…"
}

// Errors returned by ParseOutput; callers match them with errors.Is.
var (
	// ErrEmpty means the model's final message was empty after trimming.
	ErrEmpty = errors.New("output is empty")
	// ErrNotJSON means the output is not exactly one JSON value, for example
	// JSON wrapped in prose or followed by trailing text.
	ErrNotJSON = errors.New("output is not a single JSON value")
	// ErrNotObject means the output is valid JSON but not an object.
	ErrNotObject = errors.New("output is not a JSON object")
)

// ParseOutput turns a model's final message into its top-level JSON object:
// it trims whitespace, strips one surrounding Markdown code fence, and parses
// the rest as exactly one JSON object. Member values are kept raw.
func ParseOutput(text string) (map[string]json.RawMessage, error) {
	body := strings.TrimSpace(stripFence(text))
	if body == "" {
		return nil, ErrEmpty
	}
	b := []byte(body)
	if err := nesting.JSON(b); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotJSON, err)
	}
	if !json.Valid(b) {
		return nil, ErrNotJSON
	}
	obj, ok := asObject(b)
	if !ok {
		return nil, fmt.Errorf("%w (got %s)", ErrNotObject, Kind(b))
	}
	return obj, nil
}

// stripFence removes one surrounding ``` or ```json fence. Anything that
// does not look like a complete fence is returned unchanged (trimmed) so that
// the JSON parse rejects it instead of a guess rescuing it.
func stripFence(text string) string {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		return s
	}
	opener := strings.TrimSpace(s[3:nl])
	if opener != "" && !strings.EqualFold(opener, "json") {
		return s
	}
	rest := s[nl+1:]
	if !strings.HasSuffix(rest, "```") {
		return s
	}
	return strings.TrimSpace(strings.TrimSuffix(rest, "```"))
}
