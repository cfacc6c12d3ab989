package rubric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Put writes r (one rubric object) into the JSON overlay at path — the
// array under "rubrics", replacing the rubric with its id or adding it —
// keeping every other key of the file. It returns the file's previous
// bytes (nil when it did not exist) so that a caller can put them back.
// This is `tune apply`'s one write to a user's file (spec §14.7).
func Put(path string, r json.RawMessage) (previous []byte, err error) {
	parsed, err := Parse(r)
	if err != nil || parsed.ID == "" {
		return nil, fmt.Errorf("not a rubric with an id: %v", err)
	}
	top := map[string]json.RawMessage{}
	previous, err = os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		previous = nil
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(previous, &top); err != nil || top == nil {
			return nil, fmt.Errorf("%s is not a JSON object; fix or move it first", path)
		}
	}
	var list []json.RawMessage
	if raw := bytes.TrimSpace(top["rubrics"]); len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("%s: \"rubrics\" is not an array; fix it first", path)
		}
	}
	replaced := false
	for i, item := range list {
		if old, err := Parse(item); err == nil && old.ID == parsed.ID {
			list[i], replaced = r, true
		}
	}
	if !replaced {
		list = append(list, r)
	}
	if top["rubrics"], err = json.Marshal(list); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return previous, os.WriteFile(path, append(out, '\n'), 0o644)
}
