package events

import "github.com/tribunal-cc/tribunal/internal/rules"

// MetaStart is the tribunal.meta.start payload (spec §7.5 row 10). It is the only
// payload that carries verdicts_reviewed (spec §A.9).
type MetaStart struct {
	TaskID           string `json:"task_id" check:"id"`
	IterationID      string `json:"iteration_id" check:"id"`
	MetaModelID      string `json:"meta_model_id,omitempty"`
	VerdictsReviewed *int   `json:"verdicts_reviewed,omitempty" check:"min=0"`
}

// EventType returns "tribunal.meta.start".
func (MetaStart) EventType() string { return "tribunal.meta.start" }

// MetaComplete is the tribunal.meta.complete payload (spec §7.5 row 11).
type MetaComplete struct {
	TaskID                 string   `json:"task_id" check:"id"`
	VerdictQuality         string   `json:"verdict_quality" check:"enum=verdict_quality"`
	BiasDetected           bool     `json:"bias_detected"`
	OverrideRecommendation string   `json:"override_recommendation,omitempty" check:"enum=override"`
	IterationID            string   `json:"iteration_id,omitempty"`
	BiasTypes              []string `json:"bias_types,omitempty" check:"enum=bias_type"`
	Confidence             *float64 `json:"confidence,omitempty" check:"unit"`
	MetaModelID            string   `json:"meta_model_id,omitempty"`
}

// EventType returns "tribunal.meta.complete".
func (MetaComplete) EventType() string { return "tribunal.meta.complete" }

// MetaSkipped is the tribunal.meta.skipped payload (spec §7.5 row 11′),
// tribunal's own addition to the schema: a round that went without the
// meta-judge, and why (spec §4.6 Skipping). It stands instead of
// meta.start and meta.complete, so no consumer reads a skip as "sound".
type MetaSkipped struct {
	TaskID      string `json:"task_id" check:"id"`
	IterationID string `json:"iteration_id" check:"id"`
	Reason      string `json:"reason" check:"enum=skip_reason"`
	Detail      string `json:"detail,omitempty"`
}

// EventType returns "tribunal.meta.skipped".
func (MetaSkipped) EventType() string { return "tribunal.meta.skipped" }

// GatePassed is the tribunal.gate.passed payload (spec §7.5 row 12a).
type GatePassed struct {
	TaskID          string  `json:"task_id" check:"id"`
	IterationID     string  `json:"iteration_id" check:"id"`
	FinalScore      float64 `json:"final_score" check:"unit"`
	IterationNumber *int    `json:"iteration_number,omitempty" check:"min=0"`
	JudgesConsulted *int    `json:"judges_consulted,omitempty" check:"min=1"`
}

// EventType returns "tribunal.gate.passed".
func (GatePassed) EventType() string { return "tribunal.gate.passed" }

// GateBlocked is the tribunal.gate.blocked payload (spec §7.5 row 12b).
type GateBlocked struct {
	TaskID               string       `json:"task_id" check:"id"`
	IterationID          string       `json:"iteration_id" check:"id"`
	Reason               rules.Reason `json:"reason" check:"enum=reason"`
	FinalScore           *float64     `json:"final_score,omitempty" check:"unit"`
	IterationNumber      *int         `json:"iteration_number,omitempty" check:"min=0"`
	WillRetry            *bool        `json:"will_retry,omitempty"`
	RetryIterationNumber *int         `json:"retry_iteration_number,omitempty" check:"min=0"`
	FailedCriterion      string       `json:"failed_criterion,omitempty"`
}

// EventType returns "tribunal.gate.blocked".
func (GateBlocked) EventType() string { return "tribunal.gate.blocked" }
