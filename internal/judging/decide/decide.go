// Package decide is one iteration's decision as a typed function —
// aggregate, dissent, then the gate — and its JSON form behind
// `tribunal-session decide`.
package decide

import (
	"github.com/tribunal-cc/tribunal/internal/judging/aggregate"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Input is one iteration to decide. The policy fields are the effective
// parameters: a rubric's own policy fields are not consulted.
type Input struct {
	Policy               rules.Policy
	Method               rules.Method
	ScoreThreshold       float64
	DissentThreshold     float64
	MinCriterionCoverage float64
	// Verdicts is the whole panel in seat order, unusable verdicts
	// included (they keep their seats).
	Verdicts []verdict.Verdict
	// Rubric supplies weights and floors; nil means none.
	Rubric *rubric.Rubric
	Meta   verdict.Meta
	// Aggregate and Dissent, when set, are used as given instead of being
	// recomputed, so a recorded iteration can be put through the gate
	// exactly as it was.
	Aggregate, Dissent *float64
}

// Defaults returns an Input with the built-in policy, method and
// thresholds (spec §2.4) and nothing to judge.
func Defaults() Input {
	return Input{
		Policy:               rules.DefaultPolicy,
		Method:               rules.DefaultMethod,
		ScoreThreshold:       rules.DefaultScoreThreshold,
		DissentThreshold:     rules.DefaultDissentThreshold,
		MinCriterionCoverage: rules.DefaultMinCriterionCoverage,
	}
}

// Output is the decision.
type Output struct {
	Aggregate float64
	Dissent   float64
	Gate      gate.Result
	// Warnings are the aggregate's and the gate's diagnostics, in the
	// order they arose.
	Warnings []string
}

// Decide aggregates the usable verdicts, measures their dissent and runs
// the gate (spec §5, spec §6), with the same code the loop uses.
func Decide(in Input) Output {
	var out Output
	if in.Aggregate != nil {
		out.Aggregate = *in.Aggregate
	} else {
		var w []string
		out.Aggregate, w = aggregate.Score(in.Method, in.Verdicts, in.Rubric, in.MinCriterionCoverage)
		out.Warnings = append(out.Warnings, w...)
	}
	if in.Dissent != nil {
		out.Dissent = *in.Dissent
	} else {
		var w []string
		out.Dissent, w = aggregate.Disagreement(in.Verdicts)
		out.Warnings = append(out.Warnings, w...)
	}
	out.Gate = gate.Decide(gate.Input{
		Policy: in.Policy, Verdicts: in.Verdicts, Rubric: in.Rubric, Meta: in.Meta,
		Aggregate: out.Aggregate, Threshold: in.ScoreThreshold,
		Dissent: out.Dissent, DissentThreshold: in.DissentThreshold,
	})
	out.Warnings = append(out.Warnings, out.Gate.Warnings...)
	return out
}
