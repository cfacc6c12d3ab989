package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// Prompt is the proposer's prompt for r: the surface and r's failures,
// which the tuner fills from the train part only.
func Prompt(r Request) string {
	in := prompts.TuneInput{Criteria: r.Surface.Criteria(), Directives: r.Surface.Directives(), Want: r.Want, Ops: Ops,
		MaxDirectives: rubric.MaxDirectives, DirectiveLen: rubric.MaxDirectiveLen}
	for _, f := range r.Failures {
		in.Failures = append(in.Failures, prompts.TuneFailure{ID: f.ID, Task: f.Task, Diff: f.Diff, Label: f.Label, Decision: f.Decision})
	}
	return prompts.TunePrompt(in)
}

// ModelProposer is the proposer seat: one model call per generation
// through the judges' call path (a claude child, or another family's
// runner), isolated like every non-actor child — no tools, no MCP, the
// tree's settings untrusted (claude.Call's defaults).
type ModelProposer struct {
	Runner  claude.Runner
	Model   string
	Dir     string
	Timeout time.Duration
}

// Propose asks the model once and reads its proposals.
func (m ModelProposer) Propose(ctx context.Context, r Request) ([]Proposal, float64, error) {
	res, err := m.Runner.Run(ctx, claude.Call{
		Role: "tune", Prompt: Prompt(r), Model: m.Model, JSONSchema: prompts.TuneSchema(),
		Tools: []string{}, StrictMCP: true, MaxTurns: 1, Dir: m.Dir, Timeout: m.Timeout,
	})
	cost := 0.0
	if res.CostUSD != nil {
		cost = *res.CostUSD
	}
	if err != nil {
		return nil, cost, err
	}
	raw := res.Structured
	if len(raw) == 0 {
		raw = json.RawMessage(res.Text)
	}
	props, err := ParseProposals(raw)
	return props, cost, err
}

// ParseProposals reads {"proposals": [...]}, refusing unknown keys.
func ParseProposals(raw []byte) ([]Proposal, error) {
	var v struct {
		Proposals []Proposal `json:"proposals"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the proposer's answer is not proposals JSON: %w", err)
	}
	return v.Proposals, nil
}
