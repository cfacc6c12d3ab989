// Package rubric defines rubrics, loads the rubric set from built-ins and overlays, and validates them.
package rubric

import "encoding/json"

// Criterion is one rubric criterion. Weight and MinPass are nil when the
// field is absent or not a JSON number, so callers can apply the contract's
// "numeric weight" and "numeric min_pass" rules without re-parsing.
type Criterion struct {
	Name    string   // "" when absent or not a string
	Weight  *float64 // nil when absent or not a number
	MinPass *float64 // nil when absent or not a number
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

	// Raw is the rubric object exactly as it was selected, for snapshots.
	Raw json.RawMessage
}
