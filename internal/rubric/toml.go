package rubric

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// addTOMLFile applies a TOML overlay. Each [[rubrics]] entry is turned into
// the equivalent JSON rubric object and then read exactly like a JSON one,
// so both formats share one set of keys, one validation and one wording of
// every error. A syntax error ignores the file (nothing in it can be
// trusted); anything wrong inside one rubric affects that rubric only.
func (s *Set) addTOMLFile(path string, warn func(string)) {
	data, ok := readCapped(path, warn)
	if !ok {
		return
	}
	// The decoder and jsonable recurse: bound the depth first.
	if err := nesting.TOML(data); err != nil {
		warn(fmt.Sprintf("%s: %v; file ignored", path, err))
		return
	}
	var top map[string]any
	if _, err := toml.Decode(string(data), &top); err != nil {
		warn(fmt.Sprintf("%s: %v; file ignored", path, describeTOMLError(err)))
		return
	}
	warnUnknownTop(path, top, warn)
	list, present := top["rubrics"]
	if !present {
		return
	}
	entries, ok := list.([]map[string]any)
	if !ok {
		// An inline array of inline tables decodes as []any.
		items, isList := list.([]any)
		if !isList {
			warn(fmt.Sprintf("%s: \"rubrics\" is not an array of tables; file ignored", path))
			return
		}
		for _, item := range items {
			m, isTable := item.(map[string]any)
			if !isTable {
				warn(fmt.Sprintf("%s: \"rubrics\" is not an array of tables; file ignored", path))
				return
			}
			entries = append(entries, m)
		}
	}
	for i, entry := range entries {
		where := fmt.Sprintf("rubrics[%d]", i)
		v, err := jsonable(entry, where)
		if err != nil {
			// Keep what identifies the rubric, so that selecting it says
			// what is wrong rather than that it does not exist.
			v = map[string]any{"id": entry["id"]}
		}
		raw, merr := json.Marshal(v)
		if merr != nil {
			warn(fmt.Sprintf("%s: %s: %v; skipped", path, where, merr))
			continue
		}
		s.addEntry(raw, path, where, err, warn)
	}
}

// describeTOMLError gives a syntax error's position in the file.
func describeTOMLError(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("toml syntax error at line %d, column %d: %s",
			pe.Position.Line, pe.Position.Col, strings.TrimSuffix(pe.Message, "."))
	}
	return err
}

// jsonable converts a decoded TOML value into one encoding/json renders
// faithfully: NaN and infinities, which JSON cannot carry, are an error
// naming their key; dates and times become their TOML text, so that a
// date where a number belongs reads "must be a number".
func jsonable(v any, where string) (any, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: %v is not a valid number", where, x)
		}
		return x, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			c, err := jsonable(item, where+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []map[string]any:
		out := make([]any, len(x))
		for i, item := range x {
			c, err := jsonable(item, fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			c, err := jsonable(item, fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	}
	return v, nil
}
