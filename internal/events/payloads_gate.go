package events

import "github.com/tribunal-cc/tribunal/internal/rules"

// MetaStart is the tribunal.meta.start payload (spec §7.5 row 10). It is the only
// payload that carries verdicts_reviewed (spec §A.9).
type MetaStart struct {
	TaskID           string `json:"task_id"`
	IterationID      string `json:"iteration_id"`
	MetaModelID      string `json:"meta_model_id,omitempty"`
	VerdictsReviewed *int   `json:"verdicts_reviewed,omitempty"`
}

// EventType returns "tribunal.meta.start".
func (MetaStart) EventType() string { return "tribunal.meta.start" }

// Validate reports the first schema violation, if any.
func (p MetaStart) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.optMin("verdicts_reviewed", p.VerdictsReviewed, 0)
	return c.err
}

// MetaComplete is the tribunal.meta.complete payload (spec §7.5 row 11).
type MetaComplete struct {
	TaskID                 string   `json:"task_id"`
	VerdictQuality         string   `json:"verdict_quality"`
	BiasDetected           bool     `json:"bias_detected"`
	OverrideRecommendation string   `json:"override_recommendation,omitempty"`
	IterationID            string   `json:"iteration_id,omitempty"`
	BiasTypes              []string `json:"bias_types,omitempty"`
	Confidence             *float64 `json:"confidence,omitempty"`
	MetaModelID            string   `json:"meta_model_id,omitempty"`
}

// EventType returns "tribunal.meta.complete".
func (MetaComplete) EventType() string { return "tribunal.meta.complete" }

// Validate reports the first schema violation, if any.
func (p MetaComplete) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.enum("verdict_quality", p.VerdictQuality, verdictQualities)
	c.optEnum("override_recommendation", p.OverrideRecommendation, overrides)
	c.enumEach("bias_types", p.BiasTypes, biasTypes)
	c.optUnit("confidence", p.Confidence)
	return c.err
}

// GatePassed is the tribunal.gate.passed payload (spec §7.5 row 12a).
type GatePassed struct {
	TaskID          string  `json:"task_id"`
	IterationID     string  `json:"iteration_id"`
	FinalScore      float64 `json:"final_score"`
	IterationNumber *int    `json:"iteration_number,omitempty"`
	JudgesConsulted *int    `json:"judges_consulted,omitempty"`
}

// EventType returns "tribunal.gate.passed".
func (GatePassed) EventType() string { return "tribunal.gate.passed" }

// Validate reports the first schema violation, if any.
func (p GatePassed) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.unit("final_score", p.FinalScore)
	c.optMin("iteration_number", p.IterationNumber, 0)
	c.optMin("judges_consulted", p.JudgesConsulted, 1)
	return c.err
}

// GateBlocked is the tribunal.gate.blocked payload (spec §7.5 row 12b).
type GateBlocked struct {
	TaskID               string       `json:"task_id"`
	IterationID          string       `json:"iteration_id"`
	Reason               rules.Reason `json:"reason"`
	FinalScore           *float64     `json:"final_score,omitempty"`
	IterationNumber      *int         `json:"iteration_number,omitempty"`
	WillRetry            *bool        `json:"will_retry,omitempty"`
	RetryIterationNumber *int         `json:"retry_iteration_number,omitempty"`
	FailedCriterion      string       `json:"failed_criterion,omitempty"`
}

// EventType returns "tribunal.gate.blocked".
func (GateBlocked) EventType() string { return "tribunal.gate.blocked" }

// Validate reports the first schema violation, if any.
func (p GateBlocked) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.enum("reason", string(p.Reason), blockReasons)
	c.optUnit("final_score", p.FinalScore)
	c.optMin("iteration_number", p.IterationNumber, 0)
	c.optMin("retry_iteration_number", p.RetryIterationNumber, 0)
	return c.err
}
