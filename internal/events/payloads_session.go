package events

import "github.com/tribunal-cc/tribunal/internal/rules"

// SessionStart is the tribunal.session.start payload (spec §7.5 row 1, spec §8.6 row 1).
type SessionStart struct {
	TaskID         string       `json:"task_id"`
	JudgeTypes     []string     `json:"judge_types,omitempty"`
	GatePolicy     rules.Policy `json:"gate_policy,omitempty"`
	ScoreThreshold *float64     `json:"score_threshold,omitempty"`
	MaxIterations  *int         `json:"max_iterations,omitempty"`
	ActorModelID   string       `json:"actor_model_id,omitempty"`
	JudgeModelIDs  []string     `json:"judge_model_ids,omitempty"`
	MetaModelID    string       `json:"meta_model_id,omitempty"`
}

// EventType returns "tribunal.session.start".
func (SessionStart) EventType() string { return "tribunal.session.start" }

// Validate reports the first schema violation, if any.
func (p SessionStart) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.enumEach("judge_types", p.JudgeTypes, judgeTypes)
	c.optEnum("gate_policy", string(p.GatePolicy), gatePolicies)
	c.optUnit("score_threshold", p.ScoreThreshold)
	c.optMin("max_iterations", p.MaxIterations, 1)
	return c.err
}

// SessionComplete is the tribunal.session.complete payload (spec §7.5 row 13).
type SessionComplete struct {
	TaskID          string   `json:"task_id"`
	Outcome         string   `json:"outcome"`
	FinalScore      *float64 `json:"final_score,omitempty"`
	IterationsUsed  *int     `json:"iterations_used,omitempty"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty"`
	TotalDurationMS *int     `json:"total_duration_ms,omitempty"`
}

// EventType returns "tribunal.session.complete".
func (SessionComplete) EventType() string { return "tribunal.session.complete" }

// Validate reports the first schema violation, if any.
func (p SessionComplete) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.enum("outcome", p.Outcome, outcomes)
	c.optUnit("final_score", p.FinalScore)
	c.optMin("iterations_used", p.IterationsUsed, 0)
	c.optNonNegFloat("total_cost_usd", p.TotalCostUSD)
	c.optMin("total_duration_ms", p.TotalDurationMS, 0)
	return c.err
}

// IterationStart is the tribunal.iteration.start payload (spec §7.5 row 2).
type IterationStart struct {
	TaskID          string `json:"task_id"`
	IterationID     string `json:"iteration_id"`
	IterationNumber int    `json:"iteration_number"`
	Trigger         string `json:"trigger,omitempty"`
}

// EventType returns "tribunal.iteration.start".
func (IterationStart) EventType() string { return "tribunal.iteration.start" }

// Validate reports the first schema violation, if any.
func (p IterationStart) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.min("iteration_number", p.IterationNumber, 0)
	c.optEnum("trigger", p.Trigger, triggers)
	return c.err
}

// ActorStart is the tribunal.actor.start payload (spec §7.5 row 3).
type ActorStart struct {
	TaskID          string `json:"task_id"`
	IterationID     string `json:"iteration_id"`
	IterationNumber *int   `json:"iteration_number,omitempty"`
	ActorModelID    string `json:"actor_model_id,omitempty"`
}

// EventType returns "tribunal.actor.start".
func (ActorStart) EventType() string { return "tribunal.actor.start" }

// Validate reports the first schema violation, if any.
func (p ActorStart) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.optMin("iteration_number", p.IterationNumber, 0)
	return c.err
}

// ActorComplete is the tribunal.actor.complete payload (spec §7.5 row 4).
// SkepticismRounds exists because the schema lists it; the loop never sets
// it.
type ActorComplete struct {
	TaskID           string `json:"task_id"`
	Success          bool   `json:"success"`
	DurationMS       *int   `json:"duration_ms,omitempty"`
	SkepticismRounds *int   `json:"skepticism_rounds,omitempty"`
	IterationID      string `json:"iteration_id,omitempty"`
	IterationNumber  *int   `json:"iteration_number,omitempty"`
	ArtifactKind     string `json:"artifact_kind,omitempty"`
	ActorModelID     string `json:"actor_model_id,omitempty"`
}

// EventType returns "tribunal.actor.complete".
func (ActorComplete) EventType() string { return "tribunal.actor.complete" }

// Validate reports the first schema violation, if any.
func (p ActorComplete) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.optMin("duration_ms", p.DurationMS, 0)
	c.optMin("skepticism_rounds", p.SkepticismRounds, 0)
	c.optMin("iteration_number", p.IterationNumber, 0)
	c.optEnum("artifact_kind", p.ArtifactKind, artifactKinds)
	return c.err
}
