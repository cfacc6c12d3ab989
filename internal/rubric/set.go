package rubric

import (
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/warncap"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// maxFileSize caps every overlay read: these files are small by nature, and
// an unbounded read of a wrong path must not exhaust memory.
const maxFileSize = 1 << 20

// LoadOptions names the sources of the rubric set (§2.6). File paths that
// are empty count as absent.
type LoadOptions struct {
	// Builtins is the merged tribunal.rubric.builtins value; nil or null
	// means no built-ins.
	Builtins json.RawMessage
	// UserJSON is $HOME/.onlooker/tribunal.json (the reference path, §12.19);
	// UserTOML is $HOME/.onlooker/tribunal.toml.
	UserJSON, UserTOML string
	// RepoJSON is <worktree>/.claude/tribunal.json; RepoTOML is
	// <worktree>/.claude/tribunal.toml.
	RepoJSON, RepoTOML string
	// Warn receives each diagnostic as one complete stderr line; nil drops
	// them.
	Warn func(string)
}

// Set is a rubric set keyed by id. The zero Set is empty and usable.
type Set struct {
	ids  []string
	byID map[string]Rubric
}

// LoadSet builds the rubric set from the built-ins and then the user JSON,
// user TOML, repository JSON and repository TOML overlays, each rubric
// replacing any earlier one with the same id whole (§2.6). Bad files and
// bad entries are skipped with a warning; loading never fails.
func LoadSet(o LoadOptions) Set {
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	var s Set
	// Each source prints its first few warnings, then a count.
	capped := func(source string, add func(func(string))) {
		w := warncap.New(warn, source)
		add(w.Warn)
		w.Flush()
	}
	if raw := bytes.TrimSpace(o.Builtins); len(raw) > 0 && string(raw) != "null" {
		capped("configuration", func(w func(string)) { s.addArray(raw, "configuration", "tribunal.rubric.builtins", w) })
	}
	for _, f := range []struct {
		path string
		add  func(string, func(string))
	}{{o.UserJSON, s.addJSONFile}, {o.UserTOML, s.addTOMLFile}, {o.RepoJSON, s.addJSONFile}, {o.RepoTOML, s.addTOMLFile}} {
		capped(f.path, func(w func(string)) { f.add(f.path, w) })
	}
	return s
}

// Lookup returns a copy of the rubric with the given id.
func (s Set) Lookup(id string) (*Rubric, bool) {
	r, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	c := r.clone()
	return &c, true
}

// IDs returns the rubric ids in the order they first appeared; a rubric
// replaced by an overlay keeps its original position.
func (s Set) IDs() []string {
	return append([]string(nil), s.ids...)
}

func (s *Set) put(r Rubric) {
	if s.byID == nil {
		s.byID = make(map[string]Rubric)
	}
	if _, ok := s.byID[r.ID]; !ok {
		s.ids = append(s.ids, r.ID)
	}
	s.byID[r.ID] = r
}

// addArray adds every usable entry of a JSON rubric array. An entry that is
// not an object or lacks a non-empty string id is skipped on its own: the
// reference lost the whole set, built-ins included, over one such entry
// (§11.22).
//
// origin names the file and key the key path of the array, for warnings.
func (s *Set) addArray(raw json.RawMessage, origin, key string, warn func(string)) {
	var entries []json.RawMessage
	if !isKind(raw, '[') || json.Unmarshal(raw, &entries) != nil {
		warn(fmt.Sprintf("tribunal: warning: %s: %q is not an array; ignored", origin, key))
		return
	}
	for i, entry := range entries {
		r, err := Parse(entry)
		if err != nil {
			warn(fmt.Sprintf("tribunal: warning: %s: %s[%d] is not an object; skipped", origin, key, i))
			continue
		}
		if r.ID == "" {
			warn(fmt.Sprintf("tribunal: warning: %s: %s[%d] has no non-empty string \"id\"; skipped", origin, key, i))
			continue
		}
		s.put(r)
	}
}

// addJSONFile applies a JSON overlay: the array under its "rubrics" key.
func (s *Set) addJSONFile(path string, warn func(string)) {
	data, ok := readCapped(path, warn)
	if !ok {
		return
	}
	if err := nesting.JSON(data); err != nil {
		warn(fmt.Sprintf("tribunal: warning: %s: %v; file ignored", path, err))
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		warn(fmt.Sprintf("tribunal: warning: %s: %s; file ignored", path, describeJSONError(data, err)))
		return
	}
	rubrics := bytes.TrimSpace(top["rubrics"])
	if len(rubrics) == 0 || string(rubrics) == "null" {
		return
	}
	if !isKind(rubrics, '[') {
		warn(fmt.Sprintf("tribunal: warning: %s: \"rubrics\" is not an array; file ignored", path))
		return
	}
	s.addArray(rubrics, path, "rubrics", warn)
}

// readCapped reads an optional layer or overlay (see store.ReadOptional).
func readCapped(path string, warn func(string)) ([]byte, bool) {
	return store.ReadOptional(path, maxFileSize, warn)
}

// describeJSONError turns a decode error into a message with a line and
// column, which encoding/json reports only as a byte offset.
func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("top level is a JSON %s, not an object", te.Value)
	}
	return fmt.Sprintf("invalid JSON: %v", err)
}

// position converts a SyntaxError offset, which counts the offending byte
// itself, into the 1-based line and column of that byte.
func position(data []byte, offset int64) (line, col int) {
	pos := int(min(max(offset-1, 0), int64(len(data))))
	before := data[:pos]
	line = bytes.Count(before, []byte("\n")) + 1
	col = pos - bytes.LastIndexByte(before, '\n')
	return line, col
}
