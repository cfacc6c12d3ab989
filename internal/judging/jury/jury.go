// Package jury turns the effective judge_types list into a panel of judge
// seats (spec §3).
package jury

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Shipped judge types: each has its own agent.
const (
	Standard    = "standard"
	Security    = "security"
	Adversarial = "adversarial"
)

// Seat is one judge on the panel.
type Seat struct {
	// JudgeID is a fresh ULID, minted anew at every empanelling.
	JudgeID string
	// JudgeType is the effective type after degradation.
	JudgeType string
	// RequestedType is the entry as it appeared in judge_types; for a
	// non-string entry it is the entry's compact JSON.
	RequestedType string
	// Agent is the agent that plays the seat, "tribunal-judge-<JudgeType>".
	Agent string
	// Model is the model for JudgeType (spec §2.5); "" when none is configured.
	Model string
}

// MarshalJSON renders the seat as its jury.json entry (records.Seat).
func (s Seat) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.Record())
}

// Record is the seat as jury.json keeps it: the agent is "subagent" and an
// unconfigured model is null.
func (s Seat) Record() records.Seat {
	var model *string
	if s.Model != "" {
		model = &s.Model
	}
	return records.Seat{JudgeID: s.JudgeID, JudgeType: s.JudgeType, Subagent: s.Agent, Model: model}
}

// Empanel seats one judge per judge_types entry, in order, following spec §3.1
// and spec §3.2: null, "" and "null" entries are skipped silently, "meta" is
// refused, and every other type that has no agent of its own sits as a
// standard judge, with a warning. Duplicates are kept. model is asked for
// the effective type's model and newID for each seat's id; warn gets each
// diagnostic as one complete stderr line.
//
// The returned panel may be empty (for example for ["meta"] or []); the
// caller must then abort before any Actor work, because an empty panel
// must never reach the gate.
func Empanel(types []json.RawMessage, model func(effectiveType string) string,
	newID func() (string, error), warn func(string)) ([]Seat, error) {
	if warn == nil {
		warn = func(string) {}
	}
	seats := []Seat{}
	for _, entry := range types {
		requested, ok := requestedType(entry)
		if !ok {
			continue
		}
		effective, ok := effectiveType(requested, warn)
		if !ok {
			continue
		}
		id, err := newID()
		if err != nil {
			return nil, fmt.Errorf("empanel %s judge: %w", effective, err)
		}
		seat := Seat{
			JudgeID:       id,
			JudgeType:     effective,
			RequestedType: requested,
			Agent:         "tribunal-judge-" + effective,
		}
		if model != nil {
			seat.Model = model(effective)
		}
		seats = append(seats, seat)
	}
	return seats, nil
}

// requestedType extracts the type name of one entry. It reports false for
// the entries tribunal 1.2.7 skipped without a word: null, "" and the
// string "null" (an artefact of its jq pipeline, kept for compatibility).
// A non-string entry is named by its JSON text and will degrade as an
// unknown type, as `jq -r` printed it in tribunal 1.2.7.
func requestedType(entry json.RawMessage) (string, bool) {
	entry = bytes.TrimSpace(entry)
	if len(entry) == 0 || string(entry) == "null" {
		return "", false
	}
	var s string
	if entry[0] == '"' {
		if json.Unmarshal(entry, &s) != nil {
			return "", false
		}
		return s, s != "" && s != "null"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, entry) != nil {
		return string(entry), true
	}
	return buf.String(), true
}

// effectiveType maps a requested type per spec §3.1; false means the seat is
// refused. Matching is case-sensitive: "Standard" is an unknown type.
func effectiveType(t string, warn func(string)) (string, bool) {
	switch t {
	case Standard, Security, Adversarial:
		return t, true
	case "meta":
		warn(`tribunal-jury: refusing to add judge_type "meta" to the jury (meta is the Meta-Judge)`)
		return "", false
	case "maintainability", "domain":
		warn(fmt.Sprintf("tribunal-jury: judge_type %q not shipped in v0.1, degrading to standard", t))
		return Standard, true
	default:
		warn(fmt.Sprintf("tribunal-jury: unknown judge_type %q, degrading to standard", t))
		return Standard, true
	}
}
