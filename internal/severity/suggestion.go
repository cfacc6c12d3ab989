package severity

import (
	"encoding/json"
	"fmt"
)

// Suggestion is replacement text a judge gave for lines StartLine to
// EndLine (1-based, inclusive) of the finding's file: the lines that
// should stand there instead (none: delete them). Optional; the GitHub
// Action offers it as a one-click change only when it covers exactly
// the cited line (reviewfmt.Suggestable).
type Suggestion struct {
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Lines     []string `json:"lines"`
}

// MaxSuggestionLines bounds a suggestion's replacement lines.
const MaxSuggestionLines = 30

// suggestionSchema is the "suggestion" property of a finding.
func suggestionSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"description": "Optional: only when you know the exact fix. The complete replacement text for lines start_line..end_line " +
			"of the cited file (normally start_line = end_line = the cited line), one string per line, indentation included.",
		"properties": map[string]any{
			"start_line": map[string]any{"type": "integer", "minimum": 1},
			"end_line":   map[string]any{"type": "integer", "minimum": 1},
			"lines":      map[string]any{"type": "array", "maxItems": MaxSuggestionLines, "items": map[string]any{"type": "string"}},
		},
		"required":             []string{"start_line", "end_line", "lines"},
		"additionalProperties": false,
	}
}

// readSuggestion reads a finding's suggestion; a malformed one is
// dropped with a warning (the finding is kept).
func readSuggestion(raw json.RawMessage, n int) (*Suggestion, string) {
	var s Suggestion
	start, okS := lineNumber(firstOf(raw, "start_line"))
	end, okE := lineNumber(firstOf(raw, "end_line"))
	if firstByte(raw) != '{' || json.Unmarshal(raw, &s) != nil || !okS || !okE || end < start || len(s.Lines) > MaxSuggestionLines {
		return nil, fmt.Sprintf("tribunal-severity: finding %d: suggestion is not {start_line, end_line, lines} of at most %d lines; ignored", n, MaxSuggestionLines)
	}
	s.StartLine, s.EndLine = start, end
	for i, l := range s.Lines {
		s.Lines[i] = clip(l, MaxMessageBytes)
	}
	return &s, ""
}

// firstOf is obj's key as raw JSON, nil when obj is not an object.
func firstOf(obj json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil
	}
	return m[key]
}
