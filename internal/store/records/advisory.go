package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// Mode marks a stop file or judgement record as an advisory verdict.
const Mode = "stop-advisory"

// Outcomes of an advisory judgement: a verdict was accepted or rejected,
// or the judgement produced none (judgement records only).
const (
	OutcomeAccepted  = "accepted"
	OutcomeRejected  = "rejected"
	OutcomeFailed    = "failed"
	OutcomeCancelled = "cancelled"
)

// HeuristicProvider is the offline heuristic judge's provider name as
// every record carries it (judge_provider, provider): the one spelling
// that show, view and the review outputs label "heuristic" by (spec §4.9).
const HeuristicProvider = "heuristic"

// JudgeInfo says which client and model family gave a verdict.
type JudgeInfo struct {
	Provider string `json:"provider"`
	Model    string `json:"model,omitempty"`
	Family   string `json:"family"`
}

// StopFile is stop-<sid>.json (spec §8.8 plus the Go additions): the
// session's latest advisory verdict, which SessionStart reads and whose
// fingerprint saves the next turn a model call.
type StopFile struct {
	TaskID      string         `json:"task_id"`
	SessionID   string         `json:"session_id"`
	Outcome     string         `json:"outcome"`
	Verdict     events.Verdict `json:"verdict"`
	Mode        string         `json:"mode"`
	Fingerprint string         `json:"fingerprint"`
	WrittenAt   string         `json:"written_at"`
	CostUSD     *float64       `json:"cost_usd,omitempty"`
	Judge       *JudgeInfo     `json:"judge,omitempty"`
	Cascade     *Cascade       `json:"cascade,omitempty"`
}

// Judgement is one judge call of a session, kept in its JudgementsDir as
// <task_id>.json and never overwritten: a verdict (accepted, rejected) or a
// judgement that produced none (failed, cancelled) with its reason.
type Judgement struct {
	TaskID      string          `json:"task_id"`
	SessionID   string          `json:"session_id"`
	Outcome     string          `json:"outcome"`
	Verdict     *events.Verdict `json:"verdict,omitempty"`
	Mode        string          `json:"mode"`
	Fingerprint string          `json:"fingerprint"`
	WrittenAt   string          `json:"written_at"`
	CostUSD     *float64        `json:"cost_usd,omitempty"`
	DurationMS  *int            `json:"duration_ms,omitempty"`
	Error       string          `json:"error,omitempty"`
	// Rewake is set when fix mode handed the verdict back to the model.
	Rewake bool `json:"rewake,omitempty"`
	// LeftOut names the untracked files the judge's diff left out because
	// they look like secrets (internal/git/secretfiles).
	LeftOut []string `json:"left_out,omitempty"`
	// Cascade is set when the Stop judge ran its cheap-first cascade.
	Cascade *Cascade `json:"cascade,omitempty"`
}

// Cascade is what the Stop judge's cheap-first cascade did for one
// verdict (tribunal.stop_hook.escalate_model): the cheap model's answer,
// and whether, and why, the stronger model was asked as well. The
// verdict is the stronger model's when it answered.
type Cascade struct {
	CheapModel      string   `json:"cheap_model"`
	CheapScore      float64  `json:"cheap_score"`
	CheapPassed     bool     `json:"cheap_passed"`
	CheapConfidence float64  `json:"cheap_confidence"`
	CheapCostUSD    *float64 `json:"cheap_cost_usd,omitempty"`
	Escalated       bool     `json:"escalated"`
	// Why is "failed" or "unsure" when escalated.
	Why         string `json:"why,omitempty"`
	StrongModel string `json:"strong_model,omitempty"`
	// StrongError is why the stronger model gave no verdict; the cheap
	// one stands then.
	StrongError string `json:"strong_error,omitempty"`
}

// wireVerdict reads a verdict's score as written, so that null, a string
// or an absent score is reported as such instead of decoding as 0.
type wireVerdict struct {
	events.Verdict
	Score json.RawMessage `json:"score"`
}

// DecodeStopFile checks and decodes a stop file's content: a JSON object
// with a ULID task_id, an accepted or rejected outcome and a verdict whose
// score is a number in [0,1]. Any other field of the wrong type makes the
// file one the Stop hook did not write.
func DecodeStopFile(data []byte) (StopFile, error) {
	trimmed, err := object(data)
	if err != nil {
		return StopFile{}, err
	}
	var w struct {
		StopFile
		TaskID  *string      `json:"task_id"`
		Verdict *wireVerdict `json:"verdict"`
	}
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return StopFile{}, decodeError(err)
	}
	if err := checkTaskID(w.TaskID); err != nil {
		return StopFile{}, err
	}
	if err := checkOutcome(w.Outcome); err != nil {
		return StopFile{}, err
	}
	v, err := verdict(w.Verdict)
	if err != nil {
		return StopFile{}, err
	}
	f := w.StopFile
	f.TaskID, f.Verdict = *w.TaskID, v
	return f, nil
}

// DecodeJudgement checks and decodes a judgement record: one that produced
// no verdict needs only its ULID task_id; a verdict is checked exactly as
// a stop file's.
func DecodeJudgement(data []byte) (Judgement, error) {
	trimmed := bytes.TrimSpace(data)
	if err := nesting.JSON(trimmed); err != nil {
		return Judgement{}, err
	}
	var w struct {
		Judgement
		TaskID  *string      `json:"task_id"`
		Verdict *wireVerdict `json:"verdict"`
	}
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return Judgement{}, decodeError(err)
	}
	j := w.Judgement
	switch w.Outcome {
	case OutcomeFailed, OutcomeCancelled:
		if w.TaskID == nil || !ValidID(*w.TaskID) {
			return Judgement{}, errors.New("task_id is missing or not a ULID")
		}
		j.TaskID = *w.TaskID
		if w.Verdict != nil {
			v := w.Verdict.Verdict
			j.Verdict = &v
		}
		return j, nil
	}
	f, err := DecodeStopFile(trimmed)
	if err != nil {
		return Judgement{}, err
	}
	j.TaskID, j.Verdict = f.TaskID, &f.Verdict
	return j, nil
}

// decodeError words a decoding failure in the file's terms: a value of the
// wrong type is named by its key path, never by the Go types that read it.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return fmt.Errorf("cannot decode it: %w", err)
	}
	// The path runs through the Go names of embedded structs (StopFile,
	// Verdict); the file's keys are lower case.
	var keys []string
	for _, k := range strings.Split(te.Field, ".") {
		if k != "" && !unicode.IsUpper(rune(k[0])) {
			keys = append(keys, k)
		}
	}
	return fmt.Errorf("cannot decode it: %s holds %s where %s belongs", strings.Join(keys, "."), article(te.Value), kindOf(te.Type))
}

func article(v string) string {
	if v == "array" || v == "object" {
		return "an " + v
	}
	return "a " + v
}

// kindOf names what a Go type reads, in JSON's words.
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	default:
		return "a number"
	}
}

// object returns data without surrounding space when it can be a JSON
// object within the nesting bound.
func object(data []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("the file is empty")
	}
	if trimmed[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	if err := nesting.JSON(trimmed); err != nil {
		return nil, err
	}
	return trimmed, nil
}

func checkTaskID(id *string) error {
	if id == nil {
		return errors.New("task_id is missing")
	}
	if !ValidID(*id) {
		return fmt.Errorf("task_id %q is not a ULID", *id)
	}
	return nil
}

func checkOutcome(o string) error {
	if o != OutcomeAccepted && o != OutcomeRejected {
		return fmt.Errorf("outcome %q is neither accepted nor rejected", o)
	}
	return nil
}

func verdict(w *wireVerdict) (events.Verdict, error) {
	if w == nil {
		return events.Verdict{}, errors.New("verdict is missing")
	}
	score, err := unitNumber(w.Score)
	if err != nil {
		return events.Verdict{}, fmt.Errorf("verdict.score %s is not a number in [0,1]", excerpt(w.Score))
	}
	v := w.Verdict
	v.Score = score
	return v, nil
}

// unitNumber reads a JSON number in [0,1]. null, strings and absent values
// are errors: json.Unmarshal would quietly leave a null as 0.
func unitNumber(raw json.RawMessage) (float64, error) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return 0, errors.New("not a number")
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return 0, errors.New("out of range")
	}
	return f, nil
}

func excerpt(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if s == "" {
		return "(missing)"
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
