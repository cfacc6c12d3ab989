package events

import (
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// JuryMember is one seat in JuryEmpaneled.Judges.
type JuryMember struct {
	JudgeID   string `json:"judge_id"`
	JudgeType string `json:"judge_type"`
	ModelID   string `json:"model_id,omitempty"`
}

// JuryEmpaneled is the tribunal.jury.empaneled payload (spec §7.5 row 5).
type JuryEmpaneled struct {
	TaskID      string       `json:"task_id"`
	IterationID string       `json:"iteration_id"`
	Judges      []JuryMember `json:"judges"`
	PanelSize   *int         `json:"panel_size,omitempty"`
}

// EventType returns "tribunal.jury.empaneled".
func (JuryEmpaneled) EventType() string { return "tribunal.jury.empaneled" }

// Validate reports the first schema violation, if any.
func (p JuryEmpaneled) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	for i, j := range p.Judges {
		c.required(fmt.Sprintf("judges[%d].judge_id", i), j.JudgeID)
		c.enum(fmt.Sprintf("judges[%d].judge_type", i), j.JudgeType, judgeTypes)
	}
	c.optMin("panel_size", p.PanelSize, 1)
	return c.err
}

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
	TaskID       string `json:"task_id"`
	IterationID  string `json:"iteration_id"`
	JudgeID      string `json:"judge_id"`
	JudgeType    string `json:"judge_type"`
	JudgeModelID string `json:"judge_model_id,omitempty"`
}

// EventType returns "tribunal.judge.start".
func (JudgeStart) EventType() string { return "tribunal.judge.start" }

// Validate reports the first schema violation, if any.
func (p JudgeStart) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.required("judge_id", p.JudgeID)
	c.enum("judge_type", p.JudgeType, judgeTypes)
	return c.err
}

// Verdict is the tribunal.verdict payload (spec §4.1, spec §7.5 row 7, spec §8.6 row 4).
// Only keys the schema lists exist here, so judge-supplied extras are
// stripped by construction (spec §A.9).
type Verdict struct {
	TaskID            string             `json:"task_id"`
	Score             float64            `json:"score"`
	Passed            bool               `json:"passed"`
	JudgeType         string             `json:"judge_type"`
	FeedbackSummary   string             `json:"feedback_summary,omitempty"`
	FilePath          string             `json:"file_path,omitempty"`
	IterationID       string             `json:"iteration_id,omitempty"`
	JudgeID           string             `json:"judge_id,omitempty"`
	JudgeModelID      string             `json:"judge_model_id,omitempty"`
	CriteriaEvaluated []string           `json:"criteria_evaluated,omitempty"`
	CriterionScores   map[string]float64 `json:"criterion_scores,omitempty"`
	StrengthsCount    *int               `json:"strengths_count,omitempty"`
	WeaknessesCount   *int               `json:"weaknesses_count,omitempty"`
	Confidence        *float64           `json:"confidence,omitempty"`
}

// EventType returns "tribunal.verdict".
func (Verdict) EventType() string { return "tribunal.verdict" }

// Validate reports the first schema violation, if any.
func (p Verdict) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.unit("score", p.Score)
	c.enum("judge_type", p.JudgeType, judgeTypes)
	for _, k := range sortedKeys(p.CriterionScores) {
		c.unit(fmt.Sprintf("criterion_scores[%q]", k), p.CriterionScores[k])
	}
	c.optMin("strengths_count", p.StrengthsCount, 0)
	c.optMin("weaknesses_count", p.WeaknessesCount, 0)
	c.optUnit("confidence", p.Confidence)
	return c.err
}

// ConsensusJudge is one usable verdict in ConsensusReached.Judges.
type ConsensusJudge struct {
	JudgeID string  `json:"judge_id"`
	Score   float64 `json:"score"`
}

// ConsensusReached is the tribunal.consensus.reached payload (spec §7.5 row 8).
type ConsensusReached struct {
	TaskID            string           `json:"task_id"`
	IterationID       string           `json:"iteration_id"`
	AggregatedScore   float64          `json:"aggregated_score"`
	Passed            bool             `json:"passed"`
	AggregationMethod rules.Method     `json:"aggregation_method"`
	Judges            []ConsensusJudge `json:"judges"`
}

// EventType returns "tribunal.consensus.reached".
func (ConsensusReached) EventType() string { return "tribunal.consensus.reached" }

// Validate reports the first schema violation, if any.
func (p ConsensusReached) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.unit("aggregated_score", p.AggregatedScore)
	c.enum("aggregation_method", string(p.AggregationMethod), aggregationMethods)
	for i, j := range p.Judges {
		c.required(fmt.Sprintf("judges[%d].judge_id", i), j.JudgeID)
		c.unit(fmt.Sprintf("judges[%d].score", i), j.Score)
	}
	return c.err
}

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
	JudgeID string  `json:"judge_id"`
	Score   float64 `json:"score"`
	Passed  bool    `json:"passed"`
}

// DissentRecorded is the tribunal.dissent.recorded payload (spec §7.5 row 9).
// It deliberately has no resolution field: tribunal 1.2.7 emitted
// resolution: null, which the schema rejects (spec §A.9).
type DissentRecorded struct {
	TaskID            string         `json:"task_id"`
	IterationID       string         `json:"iteration_id"`
	DisagreementScore float64        `json:"disagreement_score"`
	Judges            []DissentJudge `json:"judges"`
}

// EventType returns "tribunal.dissent.recorded".
func (DissentRecorded) EventType() string { return "tribunal.dissent.recorded" }

// Validate reports the first schema violation, if any.
func (p DissentRecorded) Validate() error {
	c := newChecker(p.EventType())
	c.required("task_id", p.TaskID)
	c.required("iteration_id", p.IterationID)
	c.unit("disagreement_score", p.DisagreementScore)
	for i, j := range p.Judges {
		c.required(fmt.Sprintf("judges[%d].judge_id", i), j.JudgeID)
		c.unit(fmt.Sprintf("judges[%d].score", i), j.Score)
	}
	return c.err
}

// MarshalJSON writes a nil Judges as [] because the field is required.
func (p DissentRecorded) MarshalJSON() ([]byte, error) {
	type plain DissentRecorded
	if p.Judges == nil {
		p.Judges = []DissentJudge{}
	}
	return marshalCompact(plain(p))
}
