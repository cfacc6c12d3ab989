package rubric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// maxIterationsCap bounds max_iterations so it fits an int everywhere; a
// loop of two billion passes is indistinguishable from "unbounded".
const maxIterationsCap = math.MaxInt32

// Validate runs the checks of spec §2.7 in order and returns the
// first failure. Every message names the rubric and the reason, and starts
// with the rubric's origin when it has one, so a user can find the line to
// fix: "~/.onlooker/tribunal.json: rubric docs: score_threshold must be a
// number, got "0.8"".
func Validate(r *Rubric) error {
	if r == nil {
		return errors.New("rubric is empty")
	}
	if err := validate(r); err != nil {
		if r.Origin != "" {
			return fmt.Errorf("%s: %w", r.Origin, err)
		}
		return err
	}
	return nil
}

func validate(r *Rubric) error {
	if r.ID == "" {
		return errors.New("rubric missing .id")
	}
	if len(r.problems) > 0 {
		return fmt.Errorf("rubric %s: %s", r.ID, strings.Join(r.problems, ", "))
	}
	if len(r.Criteria) == 0 {
		return fmt.Errorf("rubric %s: criteria must be non-empty", r.ID)
	}
	var bad []string
	sum := 0.0
	for i, c := range r.Criteria {
		if why := criterionProblem(c); why != "" {
			name := c.Name
			if name == "" {
				name = fmt.Sprintf("(unnamed #%d)", i+1)
			}
			bad = append(bad, name+" ("+why+")")
			continue
		}
		sum += *c.Weight
	}
	if len(bad) > 0 {
		return fmt.Errorf("rubric %s: invalid criteria: %s", r.ID, strings.Join(bad, ", "))
	}
	if !(sum > 0.99 && sum < 1.01) {
		return fmt.Errorf("rubric %s: criterion weights sum to %s (expected ~1.0)",
			r.ID, rules.Num(sum))
	}
	if r.ScoreThreshold != nil {
		if why := unitProblem(r.ScoreThreshold); why != "" {
			return fmt.Errorf("rubric %s: score_threshold %s", r.ID, why)
		}
	}
	if r.GatePolicy != nil {
		if _, err := GatePolicy(r.GatePolicy); err != nil {
			return fmt.Errorf("rubric %s: invalid gate_policy %s (%w)", r.ID, show(r.GatePolicy), err)
		}
	}
	if r.AggregationMethod != nil {
		if _, err := AggregationMethod(r.AggregationMethod); err != nil {
			return fmt.Errorf("rubric %s: invalid aggregation_method %s (%w)", r.ID, show(r.AggregationMethod), err)
		}
	}
	if r.MaxIterations != nil {
		if _, ok := numberValue(r.MaxIterations); !ok {
			return fmt.Errorf("rubric %s: max_iterations must be a number, got %s", r.ID, compact(r.MaxIterations))
		}
		if _, err := MaxIterations(r.MaxIterations); err != nil {
			return fmt.Errorf("rubric %s: max_iterations must be integer >= 1 (got %s)", r.ID, compact(r.MaxIterations))
		}
	}
	if _, err := r.Evaluators(); err != nil {
		return fmt.Errorf("rubric %s: %w", r.ID, err)
	}
	if r.rawDirectives != nil {
		if why := directivesProblem(r.rawDirectives); why != "" {
			return fmt.Errorf("rubric %s: %s", r.ID, why)
		}
	}
	return nil
}

// criterionProblem says what is wrong with a criterion, or "" when it is
// usable: a name, and a weight and a min_pass that are numbers in [0,1].
func criterionProblem(c Criterion) string {
	var why []string
	if c.Name == "" {
		why = append(why, "name must be a non-empty string")
	}
	for _, f := range []struct {
		key string
		raw json.RawMessage
	}{{"weight", c.rawWeight}, {"min_pass", c.rawMinPass}} {
		if p := unitProblem(f.raw); p != "" {
			why = append(why, f.key+" "+p)
		}
	}
	if c.mustProblem != "" {
		why = append(why, c.mustProblem)
	}
	return strings.Join(why, "; ")
}

// unitProblem says why raw is not a number in [0,1], or returns "".
func unitProblem(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "is missing"
	}
	f, ok := numberValue(raw)
	if !ok {
		return "must be a number, got " + compact(raw)
	}
	if !(f >= 0 && f <= 1) {
		return compact(raw) + " out of [0,1]"
	}
	return ""
}

// ScoreThreshold decodes a score threshold: a JSON number in [0,1]. Config
// values go through the same check as rubric fields (spec §2.3).
func ScoreThreshold(raw []byte) (float64, error) {
	return Unit(raw)
}

// Unit decodes a JSON number in the closed interval [0,1].
func Unit(raw []byte) (float64, error) {
	f, ok := numberValue(raw)
	if !ok || !(f >= 0 && f <= 1) {
		return 0, errors.New("must be a number in [0,1]")
	}
	return f, nil
}

// GatePolicy decodes a gate policy: a JSON string that rules.ParsePolicy
// accepts.
func GatePolicy(raw []byte) (rules.Policy, error) {
	p, ok := rules.ParsePolicy(stringValue(raw))
	if !isKind(raw, '"') || !ok {
		return "", fmt.Errorf("must be one of %s", rules.PolicyNames)
	}
	return p, nil
}

// AggregationMethod decodes an aggregation method: a JSON string naming
// one of rules.Methods.
func AggregationMethod(raw []byte) (rules.Method, error) {
	s, err := enum(raw, rules.Methods)
	return rules.Method(s), err
}

// MaxIterations decodes max_iterations: a JSON number with an integral value
// of at least 1. Values above 2^31-1 are clamped rather than rejected, since
// the spec sets no upper bound.
func MaxIterations(raw []byte) (int, error) {
	f, ok := numberValue(raw)
	if !ok || f < 1 || f != math.Trunc(f) {
		return 0, errors.New("must be an integer >= 1")
	}
	if f > maxIterationsCap {
		return maxIterationsCap, nil
	}
	return int(f), nil
}

func enum[T ~string](raw []byte, allowed []T) (string, error) {
	s := stringValue(raw)
	if !isKind(raw, '"') || !slices.Contains(allowed, T(s)) {
		names := make([]string, len(allowed))
		for i, a := range allowed {
			names[i] = string(a)
		}
		return "", fmt.Errorf("must be one of %s", strings.Join(names, ", "))
	}
	return s, nil
}

// show prints an enum value the way tribunal 1.2.7's `jq -r` did: strings
// without quotes, anything else as compact JSON.
func show(raw []byte) string {
	if isKind(raw, '"') {
		return stringValue(raw)
	}
	return compact(raw)
}

// compact prints a value as compact JSON. Numeric fields use it rather than
// show, so that a string "0.8", which Go rejects (spec §2.7), is visibly a string.
func compact(raw []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return buf.String()
}
