package events

import "github.com/tribunal-cc/tribunal/internal/rules"

// SessionStart is the tribunal.session.start payload (spec §7.5 row 1, spec §8.6 row 1).
type SessionStart struct {
	TaskID         string       `json:"task_id" check:"id"`
	JudgeTypes     []string     `json:"judge_types,omitempty" check:"enum=judge_type"`
	GatePolicy     rules.Policy `json:"gate_policy,omitempty" check:"enum=gate_policy"`
	ScoreThreshold *float64     `json:"score_threshold,omitempty" check:"unit"`
	MaxIterations  *int         `json:"max_iterations,omitempty" check:"min=1"`
	ActorModelID   string       `json:"actor_model_id,omitempty"`
	JudgeModelIDs  []string     `json:"judge_model_ids,omitempty"`
	MetaModelID    string       `json:"meta_model_id,omitempty"`
}

// EventType returns "tribunal.session.start".
func (SessionStart) EventType() string { return "tribunal.session.start" }

// SessionComplete is the tribunal.session.complete payload (spec §7.5 row 13).
type SessionComplete struct {
	TaskID          string   `json:"task_id" check:"id"`
	Outcome         string   `json:"outcome" check:"enum=outcome"`
	FinalScore      *float64 `json:"final_score,omitempty" check:"unit"`
	IterationsUsed  *int     `json:"iterations_used,omitempty" check:"min=0"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty" check:"nonneg"`
	TotalDurationMS *int     `json:"total_duration_ms,omitempty" check:"min=0"`
}

// EventType returns "tribunal.session.complete".
func (SessionComplete) EventType() string { return "tribunal.session.complete" }

// IterationStart is the tribunal.iteration.start payload (spec §7.5 row 2).
type IterationStart struct {
	TaskID          string `json:"task_id" check:"id"`
	IterationID     string `json:"iteration_id" check:"id"`
	IterationNumber int    `json:"iteration_number" check:"min=0"`
	Trigger         string `json:"trigger,omitempty" check:"enum=trigger"`
}

// EventType returns "tribunal.iteration.start".
func (IterationStart) EventType() string { return "tribunal.iteration.start" }

// ActorStart is the tribunal.actor.start payload (spec §7.5 row 3).
type ActorStart struct {
	TaskID          string `json:"task_id" check:"id"`
	IterationID     string `json:"iteration_id" check:"id"`
	IterationNumber *int   `json:"iteration_number,omitempty" check:"min=0"`
	ActorModelID    string `json:"actor_model_id,omitempty"`
}

// EventType returns "tribunal.actor.start".
func (ActorStart) EventType() string { return "tribunal.actor.start" }

// ActorComplete is the tribunal.actor.complete payload (spec §7.5 row 4).
// SkepticismRounds exists because the schema lists it; the loop never sets
// it.
type ActorComplete struct {
	TaskID           string `json:"task_id" check:"id"`
	Success          bool   `json:"success"`
	DurationMS       *int   `json:"duration_ms,omitempty" check:"min=0"`
	SkepticismRounds *int   `json:"skepticism_rounds,omitempty" check:"min=0"`
	IterationID      string `json:"iteration_id,omitempty"`
	IterationNumber  *int   `json:"iteration_number,omitempty" check:"min=0"`
	ArtifactKind     string `json:"artifact_kind,omitempty" check:"enum=artifact_kind"`
	ActorModelID     string `json:"actor_model_id,omitempty"`
}

// EventType returns "tribunal.actor.complete".
func (ActorComplete) EventType() string { return "tribunal.actor.complete" }
