package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/decide"
	"github.com/tribunal-cc/tribunal/internal/gate"
)

// Replay statuses of one iteration.
const (
	// StatusSame: the current rules decide exactly what was recorded.
	StatusSame = "same"
	// StatusDiffers: something the current rules compute differs.
	StatusDiffers = "differs"
	// StatusNotReplayed: an artifact replay needs is missing or corrupt.
	StatusNotReplayed = "not replayed"
	// StatusNoGate: the iteration ended before its gate (an abort or an
	// interruption), so there is no decision to compare.
	StatusNoGate = "no gate"
)

// aggregateTolerance is how far a recomputed aggregate or disagreement may
// be from the recorded one and still count as equal: JSON round trips are
// exact for float64, so any larger gap is a rule change.
const aggregateTolerance = 1e-9

// Decision is one gate decision with the numbers behind it.
type Decision struct {
	Passed          bool     `json:"passed"`
	Reason          string   `json:"reason,omitempty"`
	FailedCriterion string   `json:"failed_criterion,omitempty"`
	Aggregate       *float64 `json:"aggregated_score,omitempty"`
	// Disagreement is known for a replay, and for a recording only when
	// dissent was recorded (dissent.json holds it).
	Disagreement    *float64 `json:"disagreement,omitempty"`
	DissentRecorded bool     `json:"dissent_recorded"`
	// BlockedBy is set on a recording whose contract gate passed and which
	// one of tribunal's additional checks (command, severity, trust) then
	// blocked; Passed is then the contract gate's true.
	BlockedBy string `json:"blocked_by,omitempty"`
}

// ReplayIteration is the replay of one iteration.
type ReplayIteration struct {
	Number   int       `json:"iteration_number"`
	ID       string    `json:"iteration_id"`
	Status   string    `json:"status"`
	Recorded *Decision `json:"recorded,omitempty"`
	Replayed *Decision `json:"replayed,omitempty"`
	// DecisionChanged is set when passed, reason or failed_criterion
	// differ; Differences describes every difference in words.
	DecisionChanged bool     `json:"decision_changed"`
	Differences     []string `json:"differences,omitempty"`
	// Warnings are the decide diagnostics of the replay (unknown policy,
	// dropped verdicts, …).
	Warnings []string `json:"warnings,omitempty"`
	// Why says why an iteration was not replayed.
	Why string `json:"why,omitempty"`
}

// ReplayResult is the replay of a whole task.
type ReplayResult struct {
	TaskID     string            `json:"task_id"`
	Params     *Params           `json:"params,omitempty"`
	Iterations []ReplayIteration `json:"iterations"`
	Problems   []Problem         `json:"-"`
}

// Differs reports whether any replayed iteration differs from its record.
func (r *ReplayResult) Differs() bool {
	for _, it := range r.Iterations {
		if it.Status == StatusDiffers {
			return true
		}
	}
	return false
}

// Complete reports whether every iteration with a recorded gate was
// replayed and no artifact was damaged.
func (r *ReplayResult) Complete() bool {
	if len(r.Problems) > 0 {
		return false
	}
	for _, it := range r.Iterations {
		if it.Status == StatusNotReplayed {
			return false
		}
	}
	return true
}

// Replay recomputes every iteration's aggregate, disagreement and gate from
// the persisted artifacts with the current rules, through decide.Run (the
// code behind `tribunal-session decide`), and compares them with what was
// recorded. The parameters are the task's own (manifest effective.params
// and rubric snapshot): a replay asks whether the rules changed, not the
// configuration.
func Replay(projectDir, taskID string) *ReplayResult {
	view := ShowTask(projectDir, "", taskID)
	res := &ReplayResult{TaskID: taskID, Problems: view.Problems}
	manifest := filepath.Join(projectDir, taskID, "manifest.json")
	params, ok := view.Manifest.params()
	if ok {
		res.Params = &params
	} else if view.Manifest != nil {
		res.Problems = append(res.Problems, Problem{Path: manifest,
			Err: errors.New("has no effective.params with gate_policy and score_threshold, so the task's parameters are unknown")})
	}
	for _, it := range view.Iterations {
		ri := ReplayIteration{Number: it.Number, ID: it.ID}
		switch {
		case it.Ended:
			ri.Status = StatusNoGate
		case !ok:
			ri.Status, ri.Why = StatusNotReplayed, "the task's parameters are unknown (manifest.json)"
		case it.Gate == nil:
			ri.Status, ri.Why = StatusNotReplayed, "gate.json is missing or unreadable"
		case it.MetaRaw == nil:
			ri.Status, ri.Why = StatusNotReplayed, "meta.json is missing or unreadable"
		case missingVerdict(it) != "":
			ri.Status, ri.Why = StatusNotReplayed, missingVerdict(it)
		default:
			replayIteration(&ri, it, params, view.Manifest.Rubric)
		}
		res.Iterations = append(res.Iterations, ri)
	}
	return res
}

func missingVerdict(it IterationView) string {
	if !it.juryRead && len(it.Seats) == 0 {
		return "jury.json is missing or unreadable and there are no verdict files"
	}
	for _, rv := range it.Raw {
		if rv.raw == nil {
			return fmt.Sprintf("verdict file %s is missing or unreadable", filepath.Base(rv.path))
		}
	}
	return ""
}

// decideInput is the decide command's input, built from the artifacts.
type decideInput struct {
	Policy               string            `json:"policy"`
	AggregationMethod    string            `json:"aggregation_method,omitempty"`
	ScoreThreshold       *float64          `json:"score_threshold,omitempty"`
	DissentThreshold     *float64          `json:"dissent_threshold,omitempty"`
	MinCriterionCoverage *float64          `json:"min_criterion_coverage,omitempty"`
	Rubric               json.RawMessage   `json:"rubric,omitempty"`
	Verdicts             []json.RawMessage `json:"verdicts"`
	Meta                 json.RawMessage   `json:"meta,omitempty"`
}

type decideOutput struct {
	AggregatedScore float64  `json:"aggregated_score"`
	Disagreement    float64  `json:"disagreement"`
	Passed          bool     `json:"passed"`
	Reason          string   `json:"reason"`
	FailedCriterion string   `json:"failed_criterion"`
	Warnings        []string `json:"warnings"`
}

func replayIteration(ri *ReplayIteration, it IterationView, p Params, rub json.RawMessage) {
	in := decideInput{
		Policy: p.GatePolicy, AggregationMethod: p.AggregationMethod,
		ScoreThreshold: p.ScoreThreshold, DissentThreshold: p.DissentThreshold,
		MinCriterionCoverage: p.MinCriterionCoverage, Meta: it.MetaRaw,
	}
	if len(rub) > 0 && !bytes.Equal(bytes.TrimSpace(rub), []byte("null")) {
		in.Rubric = rub
	}
	for _, rv := range it.Raw {
		in.Verdicts = append(in.Verdicts, rv.raw)
	}
	data, err := json.Marshal(in)
	if err != nil {
		ri.Status, ri.Why = StatusNotReplayed, fmt.Sprintf("cannot build the decide input: %v", err)
		return
	}
	out, err := decide.Run(data)
	if err != nil {
		ri.Status, ri.Why = StatusNotReplayed, fmt.Sprintf("decide refused the recorded artifacts: %v", err)
		return
	}
	var d decideOutput
	if err := json.Unmarshal(out, &d); err != nil {
		ri.Status, ri.Why = StatusNotReplayed, fmt.Sprintf("cannot read the decide output: %v", err)
		return
	}
	dt := decide.DefaultDissentThreshold
	if p.DissentThreshold != nil {
		dt = *p.DissentThreshold
	}
	ri.Warnings = d.Warnings
	ri.Replayed = &Decision{
		Passed: d.Passed, Reason: d.Reason, FailedCriterion: d.FailedCriterion,
		Aggregate: &d.AggregatedScore, Disagreement: &d.Disagreement,
		DissentRecorded: gate.DissentExceeds(d.Disagreement, dt),
	}
	rec := &Decision{Passed: it.Gate.Passed, Reason: it.Gate.Reason, FailedCriterion: it.Gate.FailedCriterion}
	if it.Gate.BlockedBy != "" {
		// The additional checks run only after the contract's gate passed,
		// and their inputs (command exits, findings, trust) and policies
		// are not decide's: replay compares the contract's gate, which
		// passed.
		rec = &Decision{Passed: true, BlockedBy: it.Gate.BlockedBy}
	}
	switch {
	case it.Consensus != nil:
		rec.Aggregate = &it.Consensus.AggregatedScore
	case it.Gate.FinalScore != nil:
		rec.Aggregate = it.Gate.FinalScore
	}
	if it.Dissent != nil {
		rec.DissentRecorded = true
		rec.Disagreement = &it.Dissent.DisagreementScore
	}
	ri.Recorded = rec
	ri.Differences, ri.DecisionChanged = compare(rec, ri.Replayed, dt)
	ri.Status = StatusSame
	if len(ri.Differences) > 0 {
		ri.Status = StatusDiffers
	}
}

// compare describes every difference between a recorded decision and its
// replay, decision first.
func compare(rec, now *Decision, dt float64) ([]string, bool) {
	var diffs []string
	changed := rec.Passed != now.Passed || rec.Reason != now.Reason || rec.FailedCriterion != now.FailedCriterion
	if changed {
		diffs = append(diffs, fmt.Sprintf("gate: recorded %s, now %s", DecisionWords(rec), DecisionWords(now)))
	}
	if rec.Aggregate != nil && math.Abs(*rec.Aggregate-*now.Aggregate) > aggregateTolerance {
		diffs = append(diffs, fmt.Sprintf("aggregate: recorded %s, now %s", num(*rec.Aggregate), num(*now.Aggregate)))
	}
	switch {
	case rec.DissentRecorded && !now.DissentRecorded:
		diffs = append(diffs, fmt.Sprintf("dissent: recorded at %s, now %s does not exceed %s", num(*rec.Disagreement), num(*now.Disagreement), num(dt)))
	case !rec.DissentRecorded && now.DissentRecorded:
		diffs = append(diffs, fmt.Sprintf("dissent: not recorded, now %s exceeds %s", num(*now.Disagreement), num(dt)))
	case rec.DissentRecorded && math.Abs(*rec.Disagreement-*now.Disagreement) > aggregateTolerance:
		diffs = append(diffs, fmt.Sprintf("disagreement: recorded %s, now %s", num(*rec.Disagreement), num(*now.Disagreement)))
	}
	return diffs, changed
}

// DecisionWords renders a decision: "passed", or "blocked (reason,
// failed criterion c)".
func DecisionWords(d *Decision) string {
	if d.Passed && d.BlockedBy != "" {
		return "passed (then blocked by the " + d.BlockedBy + " check, which replay does not recompute)"
	}
	if d.Passed {
		return "passed"
	}
	s := "blocked (" + d.Reason
	if d.FailedCriterion != "" {
		s += ", failed criterion " + d.FailedCriterion
	}
	return s + ")"
}

// num prints a float with the shortest exact representation, so that a
// binary artefact such as 0.25000000000000006 is visible.
func num(f float64) string { return Num(f) }

// Num prints a recorded parameter or score for people: at most four
// decimals, trailing zeros dropped, so 0.75 stays 0.75 and a computed
// 0.9000000000000002 reads 0.9.
func Num(f float64) string {
	return strconv.FormatFloat(math.Round(f*1e4)/1e4, 'f', -1, 64)
}
