// Package decide is the pure function behind `tribunal-session decide`: a JSON description of one iteration in, the aggregate and gate decision out.
package decide

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/aggregate"
	"github.com/tribunal-cc/tribunal/internal/gate"
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Defaults for omitted input fields: the built-in session defaults (§2.4).
const (
	DefaultPolicy               = gate.Majority
	DefaultAggregationMethod    = aggregate.WeightedMean
	DefaultScoreThreshold       = 0.75
	DefaultDissentThreshold     = 0.25
	DefaultMinCriterionCoverage = 0.6
)

// ErrInput is wrapped by every error about the input document, so callers
// can tell a bad request (usage error) from anything else.
var ErrInput = errors.New("invalid decide input")

// output is the decide result. Warnings is always an array.
type output struct {
	AggregatedScore float64  `json:"aggregated_score"`
	Disagreement    float64  `json:"disagreement"`
	Passed          bool     `json:"passed"`
	Reason          string   `json:"reason,omitempty"`
	FailedCriterion string   `json:"failed_criterion,omitempty"`
	Warnings        []string `json:"warnings"`
}

// Run decides one iteration. The input is a JSON object
//
//	{policy, verdicts, rubric?, aggregation_method, score_threshold,
//	 dissent_threshold, min_criterion_coverage?, meta?,
//	 aggregated_score?, disagreement?}
//
// where omitted or null fields take the built-in defaults and verdicts and
// meta are in their normalised (verdict file, meta.json) form. A given
// aggregated_score or disagreement is used as is instead of being
// recomputed, so a recorded iteration can be replayed through the gate
// exactly. Rubric policy fields are not consulted: the caller passes the
// effective parameters explicitly. Unknown top-level keys are ignored.
//
// The result is one line of compact JSON, newline-terminated:
// {aggregated_score, disagreement, passed, reason?, failed_criterion?,
// warnings}, where warnings lists meta, aggregate and gate diagnostics in
// the order they arose. An error means the input itself is malformed; its
// message names the offending field.
func Run(input []byte) ([]byte, error) {
	in, err := parse(input)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	warnings := in.metaWarnings
	a, d := in.aggregate, in.dissent
	if !in.haveAggregate {
		var w []string
		a, w = aggregate.Score(in.method, in.gate.Verdicts, in.gate.Rubric, in.minCoverage)
		warnings = append(warnings, w...)
	}
	if !in.haveDissent {
		var w []string
		d, w = aggregate.Disagreement(in.gate.Verdicts)
		warnings = append(warnings, w...)
	}
	in.gate.Aggregate, in.gate.Dissent = a, d
	res := gate.Decide(in.gate)
	warnings = append(warnings, res.Warnings...)
	if warnings == nil {
		warnings = []string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // judge ids in warnings stay readable
	if err := enc.Encode(output{
		AggregatedScore: a,
		Disagreement:    d,
		Passed:          res.Passed,
		Reason:          res.Reason,
		FailedCriterion: res.FailedCriterion,
		Warnings:        warnings,
	}); err != nil {
		return nil, fmt.Errorf("encode decide result: %w", err)
	}
	return buf.Bytes(), nil
}

// request is a parsed decide input.
type request struct {
	gate          gate.Input
	method        string
	minCoverage   float64
	aggregate     float64
	haveAggregate bool
	dissent       float64
	haveDissent   bool
	metaWarnings  []string
}

func parse(input []byte) (request, error) {
	var req request
	if err := nesting.JSON(input); err != nil {
		return req, fmt.Errorf("input: %w", err)
	}
	if !json.Valid(input) {
		return req, errors.New("input is not valid JSON")
	}
	var f fields
	if verdict.Kind(input) != "object" || json.Unmarshal(input, &f) != nil {
		return req, fmt.Errorf("input must be a JSON object, got %s", verdict.Kind(input))
	}
	var err error
	g := &req.gate
	if g.Policy, err = f.str("policy", DefaultPolicy); err != nil {
		return req, err
	}
	if req.method, err = f.str("aggregation_method", DefaultAggregationMethod); err != nil {
		return req, err
	}
	if g.Threshold, err = f.numOr("score_threshold", DefaultScoreThreshold); err != nil {
		return req, err
	}
	if g.DissentThreshold, err = f.numOr("dissent_threshold", DefaultDissentThreshold); err != nil {
		return req, err
	}
	if req.minCoverage, err = f.numOr("min_criterion_coverage", DefaultMinCriterionCoverage); err != nil {
		return req, err
	}
	if req.aggregate, req.haveAggregate, err = f.num("aggregated_score"); err != nil {
		return req, err
	}
	if req.dissent, req.haveDissent, err = f.num("disagreement"); err != nil {
		return req, err
	}
	if g.Verdicts, err = f.verdicts(); err != nil {
		return req, err
	}
	if g.Rubric, err = f.rubric(); err != nil {
		return req, err
	}
	if f.present("meta") {
		if verdict.Kind(f["meta"]) != "object" {
			return req, fieldError("meta", "an object", f["meta"])
		}
		if g.Meta, req.metaWarnings, err = verdict.MetaFromJSON(f["meta"]); err != nil {
			return req, fmt.Errorf("field %q: %w", "meta", err)
		}
	}
	return req, nil
}
