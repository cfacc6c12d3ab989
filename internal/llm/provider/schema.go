package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// ErrSchema marks a response that is JSON but does not satisfy the output
// schema the judge was given.
var ErrSchema = errors.New("response does not match the output schema")

// Conform is the parse-and-validate step every non-claude response goes
// through, whether or not the server honoured the structured-output
// request: text (one JSON object, optionally inside one code fence) must
// satisfy schema, and the object is returned as compact JSON. The schemas
// tribunal sends use a small subset of JSON Schema (type, properties,
// required, additionalProperties, enum, minimum, maximum, items), which is
// what is checked here; a general validator costs the Stop hook several
// milliseconds of package initialisation on every turn.
//
// The answer's top level is read as the verdict's readers read it, one
// rule for the loop's judges and the Stop hook's (spec §4.1, §8.5): a key
// the schema does not list is dropped, not refused, and a key whose
// absence the reader defaults (verdict.Defaulted: passed, confidence,
// feedback_summary) may be absent or null. Everything present is checked.
func Conform(text, schema string) (json.RawMessage, error) {
	obj, err := verdict.ParseOutput(text)
	if err != nil {
		return nil, fmt.Errorf("the response is not a JSON object: %w", err)
	}
	var s map[string]any
	if schema != "" {
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
		tolerate(obj, s)
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("re-encode the response: %w", err)
	}
	if schema == "" {
		return raw, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode the response: %w", err)
	}
	if msg := check(v, s, "$"); msg != "" {
		return nil, fmt.Errorf("%w: %s", ErrSchema, msg)
	}
	return raw, nil
}

// tolerate applies Conform's top-level reading to obj and the object
// schema s: it deletes the keys s does not list (when s forbids others)
// and the defaulted keys that are null, and drops the defaulted keys from
// s's required list.
func tolerate(obj map[string]json.RawMessage, s map[string]any) {
	if t, _ := s["type"].(string); t != "object" {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for k, raw := range obj {
		if _, known := props[k]; !known && s["additionalProperties"] == false {
			delete(obj, k)
		} else if verdict.Defaulted(k) && string(bytes.TrimSpace(raw)) == "null" {
			delete(obj, k)
		}
	}
	if req, ok := s["required"].([]any); ok {
		s["required"] = slices.DeleteFunc(req, func(r any) bool {
			name, _ := r.(string)
			return verdict.Defaulted(name)
		})
	}
}

// check returns the first violation of schema s by value v at path, or "".
// An enum is checked first, then the keywords of s's type.
func check(v any, s map[string]any, path string) string {
	if enum, ok := s["enum"].([]any); ok {
		if !slices.ContainsFunc(enum, func(e any) bool { return equalJSON(e, v) }) {
			return fmt.Sprintf("%s is %s, not one of the allowed values", path, short(v))
		}
	}
	switch t, _ := s["type"].(string); t {
	case "object":
		return checkObject(v, s, path)
	case "array":
		return checkArray(v, s, path)
	case "string":
		return checkString(v, s, path)
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s must be a boolean, got %s", path, short(v))
		}
	case "number", "integer":
		return checkNumber(v, s, path, t == "integer")
	}
	return ""
}

// checkObject checks an object's required keys, then each key in sorted
// order (so the first violation reported does not depend on map order)
// against its property schema or additionalProperties.
func checkObject(v any, s map[string]any, path string) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("%s must be an object, got %s", path, short(v))
	}
	props, _ := s["properties"].(map[string]any)
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, _ := r.(string); name != "" {
				if _, has := obj[name]; !has {
					return fmt.Sprintf("%s lacks the required key %q", path, name)
				}
			}
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub, known := props[k].(map[string]any)
		if !known {
			if extra, isObj := s["additionalProperties"].(map[string]any); isObj {
				sub, known = extra, true
			} else if s["additionalProperties"] == false {
				return fmt.Sprintf("%s has the unknown key %q", path, k)
			}
		}
		if known {
			if msg := check(obj[k], sub, path+"."+k); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// checkArray checks an array's length, uniqueness and items.
func checkArray(v any, s map[string]any, path string) string {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Sprintf("%s must be an array, got %s", path, short(v))
	}
	if hi, ok := s["maxItems"].(float64); ok && float64(len(arr)) > hi {
		return fmt.Sprintf("%s has %d items, more than %g", path, len(arr), hi)
	}
	if s["uniqueItems"] == true {
		seen := map[string]bool{}
		for _, e := range arr {
			k := short(e)
			if seen[k] {
				return fmt.Sprintf("%s repeats %s", path, k)
			}
			seen[k] = true
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		for i, e := range arr {
			if msg := check(e, items, fmt.Sprintf("%s[%d]", path, i)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// checkString checks a string's minimum length, counted in characters
// (runes), as JSON Schema counts it.
func checkString(v any, s map[string]any, path string) string {
	str, ok := v.(string)
	if !ok {
		return fmt.Sprintf("%s must be a string, got %s", path, short(v))
	}
	if lo, ok := s["minLength"].(float64); ok && float64(utf8.RuneCountInString(str)) < lo {
		return fmt.Sprintf("%s is shorter than %g characters", path, lo)
	}
	return ""
}

// checkNumber checks a number against integer, minimum and maximum. It is
// a json.Number, so messages quote the response's own digits; 3.0 counts
// as an integer.
func checkNumber(v any, s map[string]any, path string, integer bool) string {
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Sprintf("%s must be a number, got %s", path, short(v))
	}
	f, err := n.Float64()
	if err != nil {
		return fmt.Sprintf("%s is not a finite number", path)
	}
	if integer && strings.ContainsAny(n.String(), ".eE") && f != float64(int64(f)) {
		return fmt.Sprintf("%s must be an integer, got %s", path, n)
	}
	if lo, ok := s["minimum"].(float64); ok && f < lo {
		return fmt.Sprintf("%s is %s, below the minimum %g", path, n, lo)
	}
	if hi, ok := s["maximum"].(float64); ok && f > hi {
		return fmt.Sprintf("%s is %s, above the maximum %g", path, n, hi)
	}
	return ""
}

// equalJSON compares a schema enum member with a decoded value.
func equalJSON(a, b any) bool {
	if n, ok := b.(json.Number); ok {
		f, err := n.Float64()
		af, isNum := a.(float64)
		return err == nil && isNum && af == f
	}
	switch b.(type) {
	case map[string]any, []any:
		return false // enums here list scalars only
	}
	return a == b
}

// short renders a value for a message, cut to a few dozen bytes.
func short(v any) string {
	b, _ := json.Marshal(v)
	return safetext.OneLine(string(b), 40)
}
