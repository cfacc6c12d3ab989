package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// Surface is what tune may change: one rubric object (its criteria, their
// weights and floors, its score threshold, its directives to the judges),
// kept as JSON so that every key the tuner does not touch passes through
// unchanged.
type Surface struct {
	Raw json.RawMessage `json:"rubric"`
}

// Edit is one bounded change to a surface. Op is one of the Ops.
type Edit struct {
	Op string `json:"op"`
	// Criterion names the criterion an edit of one acts on.
	Criterion string `json:"criterion,omitempty"`
	// Name is the new criterion's name (add_criterion) or the new wording
	// (reword_criterion).
	Name string `json:"name,omitempty"`
	// Value is the weight, floor or threshold the edit sets.
	Value *float64 `json:"value,omitempty"`
	// Directive is the existing directive (its exact text) that
	// reword_directive and remove_directive act on; Text is the new
	// directive's text (add_directive) or the new wording
	// (reword_directive).
	Directive string `json:"directive,omitempty"`
	Text      string `json:"text,omitempty"`
}

// Proposal is one candidate's edits, the train cases they address and why.
type Proposal struct {
	Edits  []Edit   `json:"edits"`
	Cites  []string `json:"cites"`
	Reason string   `json:"reason"`
}

// Ops are the edits a proposal may make.
var Ops = []string{"add_criterion", "reword_criterion", "remove_criterion", "set_weight", "set_min_pass", "set_threshold",
	"add_directive", "reword_directive", "remove_directive"}

// Bounds of one proposal: a few small edits, so that a candidate stays a
// reviewable change and its lift can be traced to what it changed.
const (
	MaxEdits   = 3
	MaxNameLen = 200
)

// Apply returns the surface with p's edits made in order. A weight set
// or added rescales the other criteria so the weights still sum to 1 (the
// rubric's rule); whether the result is a valid rubric is the Scorer's
// Check.
func (s Surface) Apply(p Proposal) (Surface, error) {
	if len(p.Edits) == 0 {
		return s, fmt.Errorf("the proposal has no edit")
	}
	if len(p.Edits) > MaxEdits {
		return s, fmt.Errorf("the proposal has %d edits; at most %d", len(p.Edits), MaxEdits)
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(s.Raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return s, fmt.Errorf("the surface is not a rubric object")
	}
	for i, e := range p.Edits {
		if err := apply(obj, e); err != nil {
			return s, fmt.Errorf("edit %d (%s): %w", i+1, e.Op, err)
		}
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return s, fmt.Errorf("encode the surface: %w", err)
	}
	return Surface{Raw: raw}, nil
}

func apply(obj map[string]any, e Edit) error {
	if len(e.Name) > MaxNameLen || len(e.Criterion) > MaxNameLen {
		return fmt.Errorf("a criterion name is longer than %d characters", MaxNameLen)
	}
	if strings.HasSuffix(e.Op, "_directive") {
		return applyDirective(obj, e)
	}
	crit, _ := obj["criteria"].([]any)
	find := func() (int, error) {
		for i, c := range crit {
			if m, ok := c.(map[string]any); ok && m["name"] == e.Criterion {
				return i, nil
			}
		}
		return -1, fmt.Errorf("no criterion is named %q", e.Criterion)
	}
	value := func() (float64, error) {
		if e.Value == nil {
			return 0, fmt.Errorf("value is missing")
		}
		return *e.Value, nil
	}
	switch e.Op {
	case "add_criterion":
		w, err := value()
		if err != nil {
			return err
		}
		if strings.TrimSpace(e.Name) == "" {
			return fmt.Errorf("name is missing")
		}
		rescale(crit, -1, w)
		obj["criteria"] = append(crit, map[string]any{"name": e.Name, "weight": w, "min_pass": 0.0})
	case "reword_criterion":
		i, err := find()
		if err != nil {
			return err
		}
		if strings.TrimSpace(e.Name) == "" {
			return fmt.Errorf("name is missing")
		}
		crit[i].(map[string]any)["name"] = e.Name
	case "remove_criterion":
		i, err := find()
		if err != nil {
			return err
		}
		crit = append(crit[:i:i], crit[i+1:]...)
		rescale(crit, -1, 0)
		obj["criteria"] = crit
	case "set_weight", "set_min_pass":
		i, err := find()
		if err != nil {
			return err
		}
		v, err := value()
		if err != nil {
			return err
		}
		if e.Op == "set_min_pass" {
			crit[i].(map[string]any)["min_pass"] = v
			return nil
		}
		crit[i].(map[string]any)["weight"] = v
		rescale(crit, i, v)
	case "set_threshold":
		v, err := value()
		if err != nil {
			return err
		}
		obj["score_threshold"] = v
	default:
		return fmt.Errorf("unknown op %q (one of %s)", e.Op, strings.Join(Ops, ", "))
	}
	return nil
}

// rescale makes the weights of every criterion but keep sum to 1 − w,
// in proportion to what they were. Weights that are not numbers are left
// for the rubric's own check to report.
func rescale(crit []any, keep int, w float64) {
	sum := 0.0
	for i, c := range crit {
		if i != keep {
			sum += weight(c)
		}
	}
	if sum <= 0 {
		return
	}
	for i, c := range crit {
		if m, ok := c.(map[string]any); ok && i != keep {
			if _, isNum := m["weight"].(json.Number); isNum || m["weight"] != nil {
				m["weight"] = math.Round(weight(c)/sum*(1-w)*1e6) / 1e6
			}
		}
	}
}

func weight(c any) float64 {
	m, _ := c.(map[string]any)
	switch v := m["weight"].(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case float64:
		return v
	}
	return 0
}

// Criteria lists the surface's criteria as "name (weight w)" lines, for
// the proposer's prompt and the report.
func (s Surface) Criteria() []string {
	var r struct {
		Criteria []struct {
			Name    string   `json:"name"`
			Weight  *float64 `json:"weight"`
			MinPass *float64 `json:"min_pass"`
		} `json:"criteria"`
		Threshold *float64 `json:"score_threshold"`
	}
	_ = json.Unmarshal(s.Raw, &r)
	var out []string
	for _, c := range r.Criteria {
		line := c.Name
		if c.Weight != nil {
			line += fmt.Sprintf(" (weight %g", *c.Weight)
			if c.MinPass != nil {
				line += fmt.Sprintf(", min_pass %g", *c.MinPass)
			}
			line += ")"
		}
		out = append(out, line)
	}
	if r.Threshold != nil {
		out = append(out, fmt.Sprintf("score_threshold %g", *r.Threshold))
	}
	return out
}

// CheckRubric is the rubric's own schema check (internal/rubric) of a
// surface: every candidate passes it before a cent is spent on it.
func CheckRubric(s Surface) error {
	r, err := rubric.Parse(s.Raw)
	if err != nil {
		return err
	}
	return rubric.Validate(&r)
}
