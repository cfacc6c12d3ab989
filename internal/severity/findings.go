package severity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Bounds on what one judge's findings may occupy in our artifacts. A model
// told to list findings can list hundreds; the ledger and the summary need
// the serious ones, not all of them.
const (
	// MaxFindings is the most findings kept per verdict, and the schema's
	// maxItems, so structured output never has to be cut.
	MaxFindings = 50
	// MaxMessageBytes bounds one finding's message.
	MaxMessageBytes = 500
	// MaxFileBytes bounds one finding's file path.
	MaxFileBytes = 300
	// MaxCriterionBytes bounds one finding's criterion name.
	MaxCriterionBytes = 100
)

// Finding is one concrete problem a judge reported.
type Finding struct {
	// Severity is the canonical (lower-case) rung name.
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	// Line is 1-based; 0 means no line was given.
	Line int `json:"line,omitempty"`
	// Criterion is the rubric criterion the problem bears on, when the
	// judge named one (optional: verdicts without it still parse).
	Criterion string `json:"criterion,omitempty"`
	// Judge is the judge type that reported it, set by the caller.
	Judge string `json:"judge,omitempty"`
	// Unverified marks a finding whose file or line does not exist where
	// the judged work is: a hallucinated location is not evidence, so such
	// a finding is shown but never blocks.
	Unverified bool `json:"unverified,omitempty"`
	// Verification is what the optional verification step (spec §6.8)
	// made of a blocking finding: Confirmed, Refuted (kept and shown, never
	// blocking) or VerifyFailed (the call failed; the finding counts);
	// "" when it was not asked. VerificationNote is the verifier's reason,
	// or why the call failed.
	Verification     string `json:"verification,omitempty"`
	VerificationNote string `json:"verification_note,omitempty"`
	// Suggestion is the judge's replacement text, when it gave one.
	Suggestion *Suggestion `json:"suggestion,omitempty"`
}

// The outcomes of the verification step (Finding.Verification).
const (
	Confirmed    = "confirmed"
	Refuted      = "refuted"
	VerifyFailed = "failed"
)

// Counts reports whether the finding is evidence the severity policy
// weighs: neither at a location that does not exist nor refuted.
func (f Finding) Counts() bool { return !f.Unverified && f.Verification != Refuted }

// Level returns the finding's rung, None when Severity is not a rung name.
func (f Finding) Level() Level {
	l, _ := Parse(f.Severity)
	return l
}

// WorstOf returns the most serious severity among the findings that
// count (Counts); ok is false when there are none. Unverified and refuted
// findings never count: the fail_at_or_above policy blocks on evidence only.
func WorstOf(findings []Finding) (Level, bool) {
	levels := make([]Level, 0, len(findings))
	for _, f := range findings {
		if f.Counts() {
			levels = append(levels, f.Level())
		}
	}
	return Worst(levels...)
}

// MarkUnverified marks every finding that cites a file (and line) for
// which exists reports false. Findings without a file are about the work
// as a whole and stay verified.
func MarkUnverified(findings []Finding, exists func(file string, line int) bool) []Finding {
	for i, f := range findings {
		if f.File != "" && !exists(f.File, f.Line) {
			findings[i].Unverified = true
		}
	}
	return findings
}

// FromVerdictJSON reads the optional "findings" array from a judge's raw
// output object (as verdict.ParseOutput returns it). An absent or null key
// means no findings. Entries are checked one by one and problems returned as
// warnings:
//
//   - an entry that is not an object, or whose severity is missing or not a
//     rung name, is dropped: there is no level to record;
//   - a missing or blank message keeps the finding, because dropping it
//     would let a "blocker" without words slip past the policy;
//   - a bad file or line is dropped from the finding, which is kept.
//
// The result is ordered worst first (stable among equals), so that when more
// than MaxFindings arrive the ones cut are the least serious.
func FromVerdictJSON(raw map[string]json.RawMessage) ([]Finding, []string) {
	val, present := raw["findings"]
	if !present || isNull(val) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(val, &items); err != nil || firstByte(val) != '[' {
		return nil, []string{"tribunal-severity: findings is not an array; ignored"}
	}
	var (
		out      []Finding
		warnings []string
	)
	for i, item := range items {
		f, warns, ok := readFinding(item, i+1)
		warnings = append(warnings, warns...)
		if ok {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return int(b.Level()) - int(a.Level()) })
	if len(out) > MaxFindings {
		warnings = append(warnings, fmt.Sprintf(
			"tribunal-severity: %d findings reported; kept the %d most serious", len(out), MaxFindings))
		out = out[:MaxFindings]
	}
	return out, warnings
}

// readFinding validates entry n (1-based, for messages).
func readFinding(item json.RawMessage, n int) (Finding, []string, bool) {
	var obj map[string]json.RawMessage
	if firstByte(item) != '{' || json.Unmarshal(item, &obj) != nil {
		return Finding{}, []string{fmt.Sprintf("tribunal-severity: finding %d is not an object; dropped", n)}, false
	}
	sev, isStr := str(obj["severity"])
	if !isStr {
		return Finding{}, []string{fmt.Sprintf("tribunal-severity: finding %d has no severity string; dropped", n)}, false
	}
	level, ok := Parse(sev)
	if !ok {
		return Finding{}, []string{fmt.Sprintf("tribunal-severity: finding %d has unknown severity %q; dropped", n, clip(sev, 40))}, false
	}
	f := Finding{Severity: level.String()}
	var warnings []string
	msg, isStr := str(obj["message"])
	if msg = strings.TrimSpace(msg); !isStr || msg == "" {
		warnings = append(warnings, fmt.Sprintf("tribunal-severity: finding %d (%s) has no message; kept for its severity", n, f.Severity))
	}
	f.Message = clip(msg, MaxMessageBytes)
	if raw, present := obj["file"]; present && !isNull(raw) {
		if file, isStr := str(raw); isStr {
			f.File = clip(strings.TrimSpace(file), MaxFileBytes)
		} else {
			warnings = append(warnings, fmt.Sprintf("tribunal-severity: finding %d: file is not a string; ignored", n))
		}
	}
	if raw, present := obj["line"]; present && !isNull(raw) {
		if line, ok := lineNumber(raw); ok {
			f.Line = line
		} else {
			warnings = append(warnings, fmt.Sprintf("tribunal-severity: finding %d: line is not an integer >= 1; ignored", n))
		}
	}
	if raw, present := obj["criterion"]; present && !isNull(raw) {
		if c, isStr := str(raw); isStr {
			f.Criterion = clip(strings.TrimSpace(c), MaxCriterionBytes)
		} else {
			warnings = append(warnings, fmt.Sprintf("tribunal-severity: finding %d: criterion is not a string; ignored", n))
		}
	}
	if raw, present := obj["suggestion"]; present && !isNull(raw) {
		var warn string
		if f.Suggestion, warn = readSuggestion(raw, n); warn != "" {
			warnings = append(warnings, warn)
		}
	}
	return f, warnings, true
}

// FindingsSchema returns the JSON Schema of the "findings" property, to be
// added to a judge's structured-output schema (not to its required list:
// a judge with nothing to report may omit it). It is a fresh value on every
// call, so callers may modify it.
func FindingsSchema() map[string]any {
	return map[string]any{
		"type":     "array",
		"maxItems": MaxFindings,
		"description": "Concrete problems you found, most serious first. Severity ladder: " +
			strings.Join(Names(), " < ") +
			". Use blocker only for a problem that must stop the change shipping. Empty when you found none.",
		"items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"severity": map[string]any{"type": "string", "enum": Names()},
				"message":  map[string]any{"type": "string", "minLength": 1},
				"file":     map[string]any{"type": "string"},
				"line":     map[string]any{"type": "integer", "minimum": 1},
				"criterion": map[string]any{"type": "string",
					"description": "Optional: the rubric criterion the problem bears on."},
				"suggestion": suggestionSchema(),
			},
			"required":             []string{"severity", "message"},
			"additionalProperties": false,
		},
	}
}

// lineNumber accepts an integral JSON number >= 1; 12.0 counts as 12
// because JSON does not tell the two apart.
func lineNumber(raw json.RawMessage) (int, bool) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f < 1 || f > math.MaxInt32 || f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
}

// str returns raw's value when it is a JSON string.
func str(raw json.RawMessage) (string, bool) {
	if firstByte(raw) != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func firstByte(raw json.RawMessage) byte {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// clip cuts s to at most max bytes on a rune boundary, marking the cut, so
// a runaway model message cannot bloat an artifact or split a character.
func clip(s string, max int) string {
	return safetext.Clip(strings.ToValidUTF8(s, "\uFFFD"), max)
}
