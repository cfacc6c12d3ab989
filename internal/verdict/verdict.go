// Package verdict holds judge and meta-judge verdicts and turns raw model
// output into them (spec §4.1, spec §4.6).
package verdict

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// Verdict is one judge's normalised verdict, exactly as aggregation and the
// gate see it. Score and criterion scores stay raw JSON: an unusable value
// (100, "n/a", null) is never repaired, so spec §5 can drop it and spec §6 can let it
// violate a floor.
type Verdict struct {
	JudgeID      string
	JudgeType    string
	JudgeModelID string
	// JudgeProvider and JudgeFamily say which client gave the verdict
	// (claude, openai, codex, gemini) and the model family behind it.
	JudgeProvider string
	JudgeFamily   string
	TaskID        string
	IterationID   string

	// Score is the raw "score" value; nil means the key was absent.
	Score json.RawMessage
	// Passed is the judge's own call; true only for a JSON true (or, when the
	// judge omitted it, a usable score at or above the threshold).
	Passed bool

	CriteriaEvaluated []string
	// CriterionScores maps rubric criterion names to raw values. It is nil
	// when the key was absent or not an object; HasCriterionScores tells an
	// empty object apart from that.
	CriterionScores    map[string]json.RawMessage
	HasCriterionScores bool

	StrengthsCount  *int
	WeaknessesCount *int
	// Confidence is kept only when the judge gave a number in [0,1].
	Confidence      *float64
	FeedbackSummary string
	// FilePath is allowed by the verdict schema and carried through unused.
	FilePath string

	// Failed marks a judge whose process failed or whose output did not
	// parse as an object (spec §4.1): it keeps its seat but has no score, no
	// criterion scores and cannot vote pass.
	Failed bool
	Error  string
	// Suspect marks a failed judge whose answer came with no token usage
	// and no cost from a client that always reports them: a stub's
	// answer, kept out of the gate (spec §4.8).
	Suspect bool
}

// Failed returns the verdict of a failed judge, for process failures,
// timeouts and unparseable output. The caller sets the ids and type.
func Failed(reason string) Verdict {
	return Verdict{Failed: true, Error: reason}
}

// UsableScore returns the score when the verdict is usable (see the terms at the top of docs/spec.md). A
// failed verdict is never usable, whatever it carries.
func (v Verdict) UsableScore() (float64, bool) {
	if v.Failed {
		return 0, false
	}
	return Usable(v.Score)
}

// Reports returns the criterion scores the verdict reports for floors and
// weighting; ok is false when it reports none (absent, not an object, or a
// failed judge).
func (v Verdict) Reports() (map[string]json.RawMessage, bool) {
	if v.Failed || !v.HasCriterionScores {
		return nil, false
	}
	return v.CriterionScores, true
}

// Emittable reports whether the verdict can be rendered as a schema-valid
// tribunal.verdict event. Decision for spec §B.5: a verdict without a usable
// score (a failed judge included) is not emitted at all, because the only
// schema-valid rendering would be a fabricated score; its judge.start
// without a matching verdict event, and the verdict file with the raw
// value, record what happened.
func (v Verdict) Emittable() bool {
	_, ok := v.UsableScore()
	return ok
}

// ReadableCriterionScores returns the criterion scores that can appear in a
// tribunal.verdict event: unreadable entries are dropped (spec §B.5), while the
// verdict file keeps them raw. It returns nil when nothing readable is
// reported.
func (v Verdict) ReadableCriterionScores() map[string]float64 {
	cs, ok := v.Reports()
	if !ok {
		return nil
	}
	var out map[string]float64
	for name, raw := range cs {
		if s, ok := Usable(raw); ok {
			if out == nil {
				out = make(map[string]float64, len(cs))
			}
			out[name] = s
		}
	}
	return out
}

// Label names the verdict in diagnostics: its judge_id, else its judge_type,
// else "unidentified" (spec §5.1).
func (v Verdict) Label() string {
	switch {
	case v.JudgeID != "":
		return v.JudgeID
	case v.JudgeType != "":
		return v.JudgeType
	default:
		return "unidentified"
	}
}

// file is the on-disk form of a verdict (spec §7.6). Field order is the order of
// the verdict table in spec §4.1, with the orchestrator fields first.
type file struct {
	JudgeID           string                     `json:"judge_id,omitempty"`
	JudgeType         string                     `json:"judge_type,omitempty"`
	JudgeModelID      string                     `json:"judge_model_id,omitempty"`
	JudgeProvider     string                     `json:"judge_provider,omitempty"`
	JudgeFamily       string                     `json:"judge_family,omitempty"`
	TaskID            string                     `json:"task_id,omitempty"`
	IterationID       string                     `json:"iteration_id,omitempty"`
	Score             json.RawMessage            `json:"score,omitempty"`
	Passed            bool                       `json:"passed"`
	CriteriaEvaluated []string                   `json:"criteria_evaluated,omitzero"`
	CriterionScores   map[string]json.RawMessage `json:"criterion_scores,omitzero"`
	StrengthsCount    *int                       `json:"strengths_count,omitempty"`
	WeaknessesCount   *int                       `json:"weaknesses_count,omitempty"`
	Confidence        *float64                   `json:"confidence,omitempty"`
	FeedbackSummary   string                     `json:"feedback_summary,omitempty"`
	FilePath          string                     `json:"file_path,omitempty"`
	Failed            bool                       `json:"failed,omitempty"`
	Error             string                     `json:"error,omitempty"`
	Suspect           bool                       `json:"suspect,omitempty"`
}

// MarshalJSON writes the verdict file form: the raw score as the gate saw
// it, absent fields omitted, and "failed"/"error" for a failed judge.
func (v Verdict) MarshalJSON() ([]byte, error) {
	f := file{
		JudgeID:           v.JudgeID,
		JudgeType:         v.JudgeType,
		JudgeModelID:      v.JudgeModelID,
		JudgeProvider:     v.JudgeProvider,
		JudgeFamily:       v.JudgeFamily,
		TaskID:            v.TaskID,
		IterationID:       v.IterationID,
		Score:             v.Score,
		Passed:            v.Passed,
		CriteriaEvaluated: v.CriteriaEvaluated,
		CriterionScores:   v.CriterionScores,
		StrengthsCount:    v.StrengthsCount,
		WeaknessesCount:   v.WeaknessesCount,
		Confidence:        v.Confidence,
		FeedbackSummary:   v.FeedbackSummary,
		FilePath:          v.FilePath,
		Failed:            v.Failed,
		Error:             v.Error,
		Suspect:           v.Suspect,
	}
	if v.HasCriterionScores && f.CriterionScores == nil {
		f.CriterionScores = map[string]json.RawMessage{}
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads a verdict with FromJSON. A JSON null leaves the
// verdict unchanged, as encoding/json's own types do.
func (v *Verdict) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	got, err := FromJSON(b)
	if err != nil {
		return err
	}
	*v = got
	return nil
}

// ErrVerdictNotObject is returned by FromJSON for any entry that is not a
// JSON object; callers turn such an entry into an unusable verdict.
var ErrVerdictNotObject = errors.New("verdict is not a JSON object")

// FromJSON reads an already-normalised verdict: a verdict file or an entry
// of the decide command's input. It is lenient about informational fields
// but strict about votes: passed counts only when it is exactly JSON true
// (spec §6.4 case 49), and a verdict marked failed carries no score or criterion
// scores whatever else the object holds.
func FromJSON(obj json.RawMessage) (Verdict, error) {
	if err := nesting.JSON(obj); err != nil {
		return Verdict{}, fmt.Errorf("verdict: %w", err)
	}
	if !json.Valid(obj) {
		return Verdict{}, errors.New("verdict is not valid JSON")
	}
	m, ok := asObject(obj)
	if !ok {
		return Verdict{}, fmt.Errorf("%w (got %s)", ErrVerdictNotObject, Kind(obj))
	}
	var v Verdict
	for key, dst := range map[string]*string{
		"judge_id":       &v.JudgeID,
		"judge_type":     &v.JudgeType,
		"judge_model_id": &v.JudgeModelID,
		"judge_provider": &v.JudgeProvider,
		"judge_family":   &v.JudgeFamily,
		"task_id":        &v.TaskID,
		"iteration_id":   &v.IterationID,
	} {
		if s, ok := asString(m[key]); ok {
			*dst = s
		}
	}
	if isTrue(m["failed"]) {
		v.Failed = true
		v.Error, _ = asString(m["error"])
		v.Suspect = isTrue(m["suspect"])
		fillInformational(&v, m)
		return v, nil
	}
	v.Score = m["score"]
	v.Passed = isTrue(m["passed"])
	fillInformational(&v, m)
	v.CriterionScores, v.HasCriterionScores = asObject(m["criterion_scores"])
	return v, nil
}

// fillInformational copies the fields that never affect the gate, keeping
// each only when it has the schema's type so no event gets a wrong-typed or
// null value.
func fillInformational(v *Verdict, m map[string]json.RawMessage) {
	v.CriteriaEvaluated, _ = asStrings(m["criteria_evaluated"])
	v.StrengthsCount, _ = asCount(m["strengths_count"])
	v.WeaknessesCount, _ = asCount(m["weaknesses_count"])
	v.Confidence, _ = asUnit(m["confidence"])
	v.FeedbackSummary, _ = asString(m["feedback_summary"])
	v.FilePath, _ = asString(m["file_path"])
}
