package stopjudge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Ask asks the advisory judge about one turn and validates its answer:
// the prompt is in with the settings' threshold and read tools, the call
// runs in dir within timeout with s.Model (provider-qualified for another
// family's client, which run then is). It is the hook's own call and calibrate's for
// --stop. The error says why there is no verdict (the call failed, or the
// answer is invalid); the Result carries the call's cost either way.
func Ask(ctx context.Context, run claude.Runner, s config.StopHookSettings, in prompts.StopInput, dir string, timeout time.Duration) (Verdict, claude.Result, error) {
	in.Threshold, in.ReadTools = s.ScoreThreshold, s.ReadTools
	call := claude.Call{
		Role:            "stop",
		Prompt:          prompts.StopPrompt(in),
		Model:           s.Model,
		JSONSchema:      prompts.StopVerdictSchema(),
		Tools:           []string{},
		StrictMCP:       true,
		MaxTurns:        2,
		MaxOutputTokens: s.MaxOutputTokens,
		Dir:             dir,
		Timeout:         timeout,
	}
	if s.ReadTools {
		call = call.WithReadOnlyTools(claude.ReadOnlyJudgeTurns)
	}
	res, err := run.Run(ctx, call)
	if err != nil {
		return Verdict{}, res, err
	}
	obj, err := responseObject(res)
	if err != nil {
		return Verdict{}, res, err
	}
	adv, err := Validate(obj, s.ScoreThreshold)
	if err != nil {
		return Verdict{}, res, fmt.Errorf("the judge's response is invalid: %w", err)
	}
	if provider.NoUsage(res) {
		// Every client the Stop judge can use reports usage (it is never
		// the heuristic judge): an answer without any is a stub's, however
		// well it scores (spec §4.8).
		return Verdict{}, res, errors.New(provider.SuspectError)
	}
	return adv, res, nil
}

// responseObject picks the verdict object out of a result: the structured
// output of a --json-schema run, or, from a CLI or wrapper that printed
// plain text, the text itself with one surrounding code fence removed.
func responseObject(res claude.Result) (map[string]json.RawMessage, error) {
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	} else if res.Envelope {
		return nil, claude.ErrNoStructuredOutput
	}
	obj, err := verdict.ParseOutput(text)
	if err != nil {
		return nil, fmt.Errorf("the judge's response is invalid: %w", err)
	}
	return obj, nil
}
