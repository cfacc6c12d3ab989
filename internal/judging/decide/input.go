package decide

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// fields is the decoded top level of a decide input, member values raw.
type fields map[string]json.RawMessage

// present reports whether key holds a value other than null; null means
// unset, as everywhere in the spec (spec §2.2).
func (f fields) present(key string) bool {
	raw, ok := f[key]
	return ok && !isNull(raw)
}

// str reads an optional string field.
func (f fields) str(key, def string) (string, error) {
	if !f.present(key) {
		return def, nil
	}
	var s string
	if verdict.Kind(f[key]) != "string" || json.Unmarshal(f[key], &s) != nil {
		return "", fieldError(key, "a string", f[key])
	}
	return s, nil
}

// num reads an optional number field; ok is false when it is unset.
func (f fields) num(key string) (v float64, ok bool, err error) {
	if !f.present(key) {
		return 0, false, nil
	}
	raw := bytes.TrimSpace(f[key])
	if verdict.Kind(raw) != "number" {
		return 0, false, fieldError(key, "a number", raw)
	}
	v, perr := strconv.ParseFloat(string(raw), 64)
	if perr != nil {
		return 0, false, fmt.Errorf("field %q: number %s is out of range: %w", key, raw, perr)
	}
	return v, true, nil
}

// optional reads an optional number field; nil when it is unset.
func (f fields) optional(key string) (*float64, error) {
	v, ok, err := f.num(key)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

// numOr reads an optional number field with a default.
func (f fields) numOr(key string, def float64) (float64, error) {
	v, ok, err := f.num(key)
	if err != nil || !ok {
		return def, err
	}
	return v, nil
}

// verdicts reads the panel. A non-object entry is not an input error: it
// becomes an unusable verdict that keeps its seat (spec §5.1), exactly as a
// garbled verdict file would.
func (f fields) verdicts() ([]verdict.Verdict, error) {
	if !f.present("verdicts") {
		return nil, nil
	}
	var entries []json.RawMessage
	if verdict.Kind(f["verdicts"]) != "array" || json.Unmarshal(f["verdicts"], &entries) != nil {
		return nil, fieldError("verdicts", "an array", f["verdicts"])
	}
	out := make([]verdict.Verdict, len(entries))
	for i, e := range entries {
		if v, err := verdict.FromJSON(e); err == nil {
			out[i] = v
		}
	}
	return out, nil
}

// rubric reads the optional rubric with rubric.Parse, so malformed criteria
// mean exactly what they mean everywhere else (a non-string name is "",
// a non-numeric weight or min_pass is absent). Only a rubric that is not an
// object, or whose criteria is not an array, is an input error. Rubric
// policy fields are not consulted; the top-level fields decide (see Run).
func (f fields) rubric() (*rubric.Rubric, error) {
	if !f.present("rubric") {
		return nil, nil
	}
	raw := f["rubric"]
	var obj fields
	if verdict.Kind(raw) != "object" || json.Unmarshal(raw, &obj) != nil {
		return nil, fieldError("rubric", "an object", raw)
	}
	if obj.present("criteria") && verdict.Kind(obj["criteria"]) != "array" {
		return nil, fieldError("rubric.criteria", "an array", obj["criteria"])
	}
	r, err := rubric.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("field %q: %w", "rubric", err)
	}
	return &r, nil
}

func fieldError(key, want string, raw json.RawMessage) error {
	return fmt.Errorf("field %q must be %s, got %s", key, want, verdict.Kind(raw))
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}
