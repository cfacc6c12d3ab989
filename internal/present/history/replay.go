package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/judging/decide"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
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
	// BlockedBy is set on a recording whose core gate passed and which
	// one of tribunal's additional checks (command, severity, trust) then
	// blocked; Passed is then the core gate's true.
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
	TaskID string `json:"task_id"`
	// Kind is the record's kind (task, review or answer), as log and
	// show name it.
	Kind       string            `json:"kind"`
	Params     *records.Params   `json:"params,omitempty"`
	Iterations []ReplayIteration `json:"iterations"`
	Problems   []records.Problem `json:"-"`
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
// the persisted artifacts with the current rules, through decide.Decide
// (the code behind `tribunal-session decide`), and compares them with what was
// recorded. The parameters are the task's own (manifest effective.params
// and rubric snapshot): a replay asks whether the rules changed, not the
// configuration.
func Replay(projectDir, taskID string) *ReplayResult {
	view := ShowTask(projectDir, "", taskID)
	res := &ReplayResult{TaskID: taskID, Kind: view.Kind(), Problems: view.Problems}
	manifest := filepath.Join(projectDir, taskID, records.ManifestFile)
	params, ok := view.Manifest.Params()
	if ok {
		res.Params = &params
	} else if view.Manifest != nil {
		res.Problems = append(res.Problems, records.Problem{Path: manifest,
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

// replayIteration decides a recorded iteration again with decide.Decide,
// the typed function behind `tribunal-session decide` and the loop's gate.
func replayIteration(ri *ReplayIteration, it IterationView, p records.Params, rub json.RawMessage) {
	in := decide.Defaults()
	in.Policy = p.GatePolicy
	if p.AggregationMethod != "" {
		in.Method = p.AggregationMethod
	}
	override(&in.ScoreThreshold, p.ScoreThreshold)
	override(&in.DissentThreshold, p.DissentThreshold)
	override(&in.MinCriterionCoverage, p.MinCriterionCoverage)
	if len(rub) > 0 && !bytes.Equal(bytes.TrimSpace(rub), []byte("null")) {
		r, err := rubric.Parse(rub)
		if err != nil {
			ri.Status, ri.Why = StatusNotReplayed, fmt.Sprintf("the manifest's rubric snapshot is unusable: %v", err)
			return
		}
		in.Rubric = &r
	}
	for _, rv := range it.Raw {
		v, _ := verdict.FromJSON(rv.raw) // a garbled verdict keeps its seat, unusable
		in.Verdicts = append(in.Verdicts, v)
	}
	if verdict.Kind(it.MetaRaw) != "object" {
		ri.Status, ri.Why = StatusNotReplayed, "meta.json is not a JSON object"
		return
	}
	meta, metaWarnings, err := verdict.MetaFromJSON(it.MetaRaw)
	if err != nil {
		ri.Status, ri.Why = StatusNotReplayed, fmt.Sprintf("meta.json is unusable: %v", err)
		return
	}
	in.Meta = meta
	d := decide.Decide(in)
	dt := in.DissentThreshold
	ri.Warnings = append(metaWarnings, d.Warnings...)
	ri.Replayed = &Decision{
		Passed: d.Gate.Passed, Reason: string(d.Gate.Reason), FailedCriterion: d.Gate.FailedCriterion,
		Aggregate: &d.Aggregate, Disagreement: &d.Dissent,
		DissentRecorded: gate.DissentExceeds(d.Dissent, dt),
	}
	rec := &Decision{Passed: it.Gate.Passed, Reason: string(it.Gate.Reason), FailedCriterion: it.Gate.FailedCriterion}
	if it.Gate.BlockedBy != "" {
		// The additional checks run only after the core gate passed,
		// and their inputs (command exits, findings, trust) and policies
		// are not decide's: replay compares the core gate, which
		// passed.
		rec = &Decision{Passed: true, BlockedBy: string(it.Gate.BlockedBy)}
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

// override sets *dst to the recorded value when there is one.
func override(dst, recorded *float64) {
	if recorded != nil {
		*dst = *recorded
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
	if rec.Aggregate != nil && math.Abs(*rec.Aggregate-*now.Aggregate) > rules.Tolerance {
		diffs = append(diffs, fmt.Sprintf("aggregate: recorded %s, now %s", num(*rec.Aggregate), num(*now.Aggregate)))
	}
	switch {
	case rec.DissentRecorded && !now.DissentRecorded:
		diffs = append(diffs, fmt.Sprintf("dissent: recorded at %s, now %s does not exceed %s", num(*rec.Disagreement), num(*now.Disagreement), num(dt)))
	case !rec.DissentRecorded && now.DissentRecorded:
		diffs = append(diffs, fmt.Sprintf("dissent: not recorded, now %s exceeds %s", num(*now.Disagreement), num(dt)))
	case rec.DissentRecorded && math.Abs(*rec.Disagreement-*now.Disagreement) > rules.Tolerance:
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

// num prints a recorded parameter or score for people (rules.Num).
func num(f float64) string { return rules.Num(f) }
