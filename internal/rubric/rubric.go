// Package rubric defines rubrics, loads the rubric set from built-ins and
// overlays, and validates them.
package rubric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Criterion is one rubric criterion. Weight and MinPass are nil when the
// field is absent or not a JSON number, so callers can apply the spec's
// "numeric weight" and "numeric min_pass" rules without re-parsing.
type Criterion struct {
	Name    string   // "" when absent or not a string
	Weight  *float64 // nil when absent or not a number
	MinPass *float64 // nil when absent or not a number
	// MustInclude and MustAvoid are what an answer judged against this
	// criterion must and must not contain (spec §2.6), checked
	// deterministically beside the jury; mustProblem says why they could
	// not be read.
	MustInclude, MustAvoid []Pattern
	mustProblem            string

	// rawWeight and rawMinPass keep the values as written, so that
	// Validate can tell "missing" from "a string" from "out of range".
	rawWeight, rawMinPass json.RawMessage
}

// Rubric is one rubric object. The policy fields keep their raw JSON so that
// "explicitly present in the rubric" can be told apart from "absent"; nil
// means absent (a JSON null is also stored as nil).
type Rubric struct {
	ID       string
	Criteria []Criterion

	ScoreThreshold    json.RawMessage
	MaxIterations     json.RawMessage
	JudgeTypes        json.RawMessage
	GatePolicy        json.RawMessage
	AggregationMethod json.RawMessage

	// rawEvaluators is the "evaluators" array as written; Evaluators
	// decodes it (spec §2.11).
	rawEvaluators json.RawMessage

	// Directives are short plain-text instructions every judge's prompt
	// carries (spec §2.6), nil when absent; rawDirectives keeps the value
	// as written so that Validate can say what is wrong with it.
	Directives    []string
	rawDirectives json.RawMessage

	// Raw is the rubric object exactly as it was selected, for snapshots.
	Raw json.RawMessage

	// Origin names where the rubric came from (an overlay file, or the
	// configuration key of the built-ins); Validate's messages start with
	// it. Parse leaves it empty; the loader sets it.
	Origin string
	// problems are what made the rubric unusable while it was read: keys
	// no rubric has (a misspelt key must not silently do nothing) and
	// values the overlay format cannot carry. Validate reports them first.
	problems []string
}

// rubricKeys and criterionKeys are the keys a rubric and a criterion may
// have, spelled exactly (spec §2.6).
var (
	rubricKeys = []string{"id", "criteria", "score_threshold", "max_iterations",
		"judge_types", "gate_policy", "aggregation_method", "evaluators", "directives"}
	criterionKeys = []string{"name", "weight", "min_pass", "must_include", "must_avoid"}
)

// errNotObject is returned by Parse for any JSON value other than an object;
// a rubric entry of another type is skipped by the loader, never coerced.
var errNotObject = errors.New("rubric is not a JSON object")

// Parse decodes one rubric object. It never rejects a rubric for bad field
// values: a non-string id becomes "", non-numeric weights become nil, and so
// on, so that Validate can report them in the spec's order (spec §2.7). It
// fails only when raw is not a JSON object.
func Parse(raw json.RawMessage) (Rubric, error) {
	// A map, not a struct, because encoding/json matches struct fields
	// case-insensitively and "ID" must not count as "id".
	var fields map[string]json.RawMessage
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Rubric{}, errNotObject
	}
	if err := nesting.JSON(trimmed); err != nil {
		return Rubric{}, fmt.Errorf("parse rubric: %w", err)
	}
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return Rubric{}, fmt.Errorf("parse rubric: %w", err)
	}
	criteria, unknownInCriteria := parseCriteria(fields["criteria"])
	r := Rubric{
		ID:                stringValue(fields["id"]),
		Criteria:          criteria,
		problems:          append(unknownKeys(trimmed, rubricKeys, ""), unknownInCriteria...),
		ScoreThreshold:    present(fields["score_threshold"]),
		MaxIterations:     present(fields["max_iterations"]),
		JudgeTypes:        present(fields["judge_types"]),
		GatePolicy:        present(fields["gate_policy"]),
		AggregationMethod: present(fields["aggregation_method"]),
		rawEvaluators:     present(fields["evaluators"]),
		Directives:        stringList(fields["directives"]),
		rawDirectives:     present(fields["directives"]),
		Raw:               slices.Clone(json.RawMessage(trimmed)),
	}
	return r, nil
}

// clone returns a copy that shares no slices with r, so a rubric handed out
// by a Set cannot be altered through the caller's copy.
func (r Rubric) clone() Rubric {
	c := r
	c.Criteria = slices.Clone(r.Criteria)
	for i := range c.Criteria {
		c.Criteria[i].MustInclude = slices.Clone(c.Criteria[i].MustInclude)
		c.Criteria[i].MustAvoid = slices.Clone(c.Criteria[i].MustAvoid)
	}
	c.ScoreThreshold = slices.Clone(r.ScoreThreshold)
	c.MaxIterations = slices.Clone(r.MaxIterations)
	c.JudgeTypes = slices.Clone(r.JudgeTypes)
	c.GatePolicy = slices.Clone(r.GatePolicy)
	c.AggregationMethod = slices.Clone(r.AggregationMethod)
	c.rawEvaluators = slices.Clone(r.rawEvaluators)
	c.Directives = slices.Clone(r.Directives)
	c.rawDirectives = slices.Clone(r.rawDirectives)
	c.Raw = slices.Clone(r.Raw)
	c.problems = slices.Clone(r.problems)
	return c
}

func parseCriteria(raw json.RawMessage) ([]Criterion, []string) {
	var items []json.RawMessage
	if !isKind(raw, '[') || json.Unmarshal(raw, &items) != nil {
		return nil, nil
	}
	out := make([]Criterion, 0, len(items))
	var unknown []string
	for i, item := range items {
		var fields map[string]json.RawMessage
		if isKind(item, '{') {
			_ = json.Unmarshal(item, &fields) // item is valid JSON: the array decoded
			unknown = append(unknown, unknownKeys(item, criterionKeys, fmt.Sprintf("criteria[%d].", i))...)
		}
		include, why := parsePatterns(fields["must_include"], "must_include")
		avoid, why2 := parsePatterns(fields["must_avoid"], "must_avoid")
		out = append(out, Criterion{
			MustInclude: include, MustAvoid: avoid, mustProblem: strings.Trim(why+"; "+why2, "; "),
			Name:    stringValue(fields["name"]),
			Weight:  numberPtr(fields["weight"]),
			MinPass: numberPtr(fields["min_pass"]),

			rawWeight:  present(fields["weight"]),
			rawMinPass: present(fields["min_pass"]),
		})
	}
	return out, unknown
}

// unknownKeys returns the keys of the JSON object obj that are not in
// known, prefixed, in document order. Keys are compared exactly: "ID" is
// not "id", and the message says so.
func unknownKeys(obj json.RawMessage, known []string, prefix string) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return out
		}
		if slices.Contains(known, key) {
			continue
		}
		msg := fmt.Sprintf("unknown key %q", prefix+key)
		caseOnly := false
		for _, k := range known {
			if strings.EqualFold(k, key) {
				msg += fmt.Sprintf(" (keys are case-sensitive: write %q)", prefix+k)
				caseOnly = true
			}
		}
		if !caseOnly {
			msg += safetext.DidYouMean(key, known, func(k string) string { return strconv.Quote(prefix + k) })
		}
		out = append(out, msg)
	}
	return out
}

// present maps an absent field and an explicit JSON null to nil, which is
// what "not explicitly set in the rubric" means for the precedence of spec §2.4.
func present(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return slices.Clone(raw)
}

// isKind reports whether raw is a JSON value whose first byte is c.
func isKind(raw json.RawMessage, c byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == c
}

// stringValue returns the JSON string raw holds, or "" for any other value.
func stringValue(raw json.RawMessage) string {
	var s string
	if !isKind(raw, '"') || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// numberValue reports the value of raw when it is a JSON number. Strings
// holding digits are not numbers: tribunal 1.2.7 accepted "3" for
// max_iterations and Go must not (spec §2.7).
func numberValue(raw json.RawMessage) (float64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, false
	}
	return f, true
}

func numberPtr(raw json.RawMessage) *float64 {
	f, ok := numberValue(raw)
	if !ok {
		return nil
	}
	return &f
}

// JudgeTypes returns the entries of a judge_types value, from a rubric or
// from tribunal.session.judge_types. Anything but a JSON array yields no
// entries, and so an empty panel (spec §3.2).
func JudgeTypes(raw json.RawMessage) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	var entries []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &entries) != nil {
		return []json.RawMessage{}
	}
	return entries
}
