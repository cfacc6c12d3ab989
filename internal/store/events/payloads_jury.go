package events

import "github.com/tribunal-cc/tribunal/internal/rules"

// JuryMember is one seat in JuryEmpaneled.Judges.
type JuryMember struct {
	JudgeID   string `json:"judge_id" check:"id"`
	JudgeType string `json:"judge_type" check:"enum=judge_type"`
	ModelID   string `json:"model_id,omitempty"`
}

// JuryEmpaneled is the tribunal.jury.empaneled payload (spec §7.5 row 5).
type JuryEmpaneled struct {
	TaskID      string       `json:"task_id" check:"id"`
	IterationID string       `json:"iteration_id" check:"id"`
	Judges      []JuryMember `json:"judges" check:"each"`
	PanelSize   *int         `json:"panel_size,omitempty" check:"min=1"`
}

// EventType returns "tribunal.jury.empaneled".
func (JuryEmpaneled) EventType() string { return "tribunal.jury.empaneled" }

// MarshalJSON writes a nil Judges as [] because the field is required and
// null is not an array.
func (p JuryEmpaneled) MarshalJSON() ([]byte, error) {
	type plain JuryEmpaneled
	if p.Judges == nil {
		p.Judges = []JuryMember{}
	}
	return marshalCompact(plain(p))
}

// JudgeStart is the tribunal.judge.start payload (spec §7.5 row 6).
type JudgeStart struct {
	TaskID       string `json:"task_id" check:"id"`
	IterationID  string `json:"iteration_id" check:"id"`
	JudgeID      string `json:"judge_id" check:"id"`
	JudgeType    string `json:"judge_type" check:"enum=judge_type"`
	JudgeModelID string `json:"judge_model_id,omitempty"`
}

// EventType returns "tribunal.judge.start".
func (JudgeStart) EventType() string { return "tribunal.judge.start" }

// Verdict is the tribunal.verdict payload (spec §4.1, spec §7.5 row 7, spec §8.6 row 4).
// Only keys the schema lists exist here, so judge-supplied extras are
// stripped by construction (spec §A.9).
type Verdict struct {
	TaskID            string             `json:"task_id" check:"id"`
	Score             float64            `json:"score" check:"unit"`
	Passed            bool               `json:"passed"`
	JudgeType         string             `json:"judge_type" check:"enum=judge_type"`
	FeedbackSummary   string             `json:"feedback_summary,omitempty"`
	FilePath          string             `json:"file_path,omitempty"`
	IterationID       string             `json:"iteration_id,omitempty"`
	JudgeID           string             `json:"judge_id,omitempty"`
	JudgeModelID      string             `json:"judge_model_id,omitempty"`
	CriteriaEvaluated []string           `json:"criteria_evaluated,omitempty"`
	CriterionScores   map[string]float64 `json:"criterion_scores,omitempty" check:"unit"`
	StrengthsCount    *int               `json:"strengths_count,omitempty" check:"min=0"`
	WeaknessesCount   *int               `json:"weaknesses_count,omitempty" check:"min=0"`
	Confidence        *float64           `json:"confidence,omitempty" check:"unit"`
}

// EventType returns "tribunal.verdict".
func (Verdict) EventType() string { return "tribunal.verdict" }

// ConsensusJudge is one usable verdict in ConsensusReached.Judges.
type ConsensusJudge struct {
	JudgeID string  `json:"judge_id" check:"id"`
	Score   float64 `json:"score" check:"unit"`
}

// ConsensusReached is the tribunal.consensus.reached payload (spec §7.5 row 8).
type ConsensusReached struct {
	TaskID            string           `json:"task_id" check:"id"`
	IterationID       string           `json:"iteration_id" check:"id"`
	AggregatedScore   float64          `json:"aggregated_score" check:"unit"`
	Passed            bool             `json:"passed"`
	AggregationMethod rules.Method     `json:"aggregation_method" check:"enum=aggregation_method"`
	Judges            []ConsensusJudge `json:"judges" check:"each"`
}

// EventType returns "tribunal.consensus.reached".
func (ConsensusReached) EventType() string { return "tribunal.consensus.reached" }

// MarshalJSON writes a nil Judges as [] (no usable verdicts is legitimate
// here, and null would break the schema).
func (p ConsensusReached) MarshalJSON() ([]byte, error) {
	type plain ConsensusReached
	if p.Judges == nil {
		p.Judges = []ConsensusJudge{}
	}
	return marshalCompact(plain(p))
}

// DissentJudge is one usable verdict in DissentRecorded.Judges; Passed is
// the judge's own boolean.
type DissentJudge struct {
	JudgeID string  `json:"judge_id" check:"id"`
	Score   float64 `json:"score" check:"unit"`
	Passed  bool    `json:"passed"`
}

// DissentRecorded is the tribunal.dissent.recorded payload (spec §7.5 row 9).
// It deliberately has no resolution field: tribunal 1.2.7 emitted
// resolution: null, which the schema rejects (spec §A.9).
type DissentRecorded struct {
	TaskID            string         `json:"task_id" check:"id"`
	IterationID       string         `json:"iteration_id" check:"id"`
	DisagreementScore float64        `json:"disagreement_score" check:"unit"`
	Judges            []DissentJudge `json:"judges" check:"each"`
}

// EventType returns "tribunal.dissent.recorded".
func (DissentRecorded) EventType() string { return "tribunal.dissent.recorded" }

// MarshalJSON writes a nil Judges as [] because the field is required.
func (p DissentRecorded) MarshalJSON() ([]byte, error) {
	type plain DissentRecorded
	if p.Judges == nil {
		p.Judges = []DissentJudge{}
	}
	return marshalCompact(plain(p))
}
