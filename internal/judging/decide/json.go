package decide

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// ErrInput is wrapped by every error about the input document, so callers
// can tell a bad request (usage error) from anything else.
var ErrInput = errors.New("invalid decide input")

// jsonOutput is the JSON form of Output. Warnings is always an array.
type jsonOutput struct {
	AggregatedScore float64      `json:"aggregated_score"`
	Disagreement    float64      `json:"disagreement"`
	Passed          bool         `json:"passed"`
	Reason          rules.Reason `json:"reason,omitempty"`
	FailedCriterion string       `json:"failed_criterion,omitempty"`
	Warnings        []string     `json:"warnings"`
}

// Run is the JSON form of Decide, for `tribunal-session decide`. The input
// is a JSON object
//
//	{policy, verdicts, rubric?, aggregation_method, score_threshold,
//	 dissent_threshold, min_criterion_coverage?, meta?,
//	 aggregated_score?, disagreement?}
//
// where omitted or null fields take the built-in defaults and verdicts and
// meta are in their normalised (verdict file, meta.json) form. Unknown
// top-level keys are ignored.
//
// The result is one line of compact JSON, newline-terminated:
// {aggregated_score, disagreement, passed, reason?, failed_criterion?,
// warnings}, where warnings lists meta, aggregate and gate diagnostics in
// the order they arose. An error means the input itself is malformed; its
// message names the offending field.
func Run(input []byte) ([]byte, error) {
	in, metaWarnings, err := parse(input)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	out := Decide(in)
	warnings := append(metaWarnings, out.Warnings...)
	if warnings == nil {
		warnings = []string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // judge ids in warnings stay readable
	if err := enc.Encode(jsonOutput{
		AggregatedScore: out.Aggregate,
		Disagreement:    out.Dissent,
		Passed:          out.Gate.Passed,
		Reason:          out.Gate.Reason,
		FailedCriterion: out.Gate.FailedCriterion,
		Warnings:        warnings,
	}); err != nil {
		return nil, fmt.Errorf("encode decide result: %w", err)
	}
	return buf.Bytes(), nil
}

// parse reads a decide input document into an Input, with the meta
// normalisation's warnings.
func parse(input []byte) (Input, []string, error) {
	in := Defaults()
	if err := nesting.JSON(input); err != nil {
		return in, nil, fmt.Errorf("input: %w", err)
	}
	if !json.Valid(input) {
		return in, nil, errors.New("input is not valid JSON")
	}
	var f fields
	if verdict.Kind(input) != "object" || json.Unmarshal(input, &f) != nil {
		return in, nil, fmt.Errorf("input must be a JSON object, got %s", verdict.Kind(input))
	}
	policy, err := f.str("policy", string(in.Policy))
	if err != nil {
		return in, nil, err
	}
	method, err := f.str("aggregation_method", string(in.Method))
	if err != nil {
		return in, nil, err
	}
	in.Policy, in.Method = rules.Policy(policy), rules.Method(method)
	if in.ScoreThreshold, err = f.numOr("score_threshold", in.ScoreThreshold); err != nil {
		return in, nil, err
	}
	if in.DissentThreshold, err = f.numOr("dissent_threshold", in.DissentThreshold); err != nil {
		return in, nil, err
	}
	if in.MinCriterionCoverage, err = f.numOr("min_criterion_coverage", in.MinCriterionCoverage); err != nil {
		return in, nil, err
	}
	if in.Aggregate, err = f.optional("aggregated_score"); err != nil {
		return in, nil, err
	}
	if in.Dissent, err = f.optional("disagreement"); err != nil {
		return in, nil, err
	}
	if in.Verdicts, err = f.verdicts(); err != nil {
		return in, nil, err
	}
	if in.Rubric, err = f.rubric(); err != nil {
		return in, nil, err
	}
	var metaWarnings []string
	if f.present("meta") {
		if verdict.Kind(f["meta"]) != "object" {
			return in, nil, fieldError("meta", "an object", f["meta"])
		}
		if in.Meta, metaWarnings, err = verdict.MetaFromJSON(f["meta"]); err != nil {
			return in, nil, fmt.Errorf("field %q: %w", "meta", err)
		}
	}
	return in, metaWarnings, nil
}
