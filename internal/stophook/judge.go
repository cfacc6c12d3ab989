package stophook

import (
	"context"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/prompts"
)

// Advisory is a validated advisory verdict (§8.6).
type Advisory = advisory

// Judge asks the advisory judge about one turn and validates its answer
// (§8.4–§8.6): the hook's own call, and calibrate's for --stop. The error
// says why there is no verdict (the call failed, or the answer is
// invalid); the result carries the call's cost either way.
func Judge(ctx context.Context, run claude.Runner, s config.StopHookSettings, in prompts.StopInput, dir string) (Advisory, claude.Result, error) {
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
		Timeout:         s.Timeout,
	}
	if s.ReadTools {
		call = call.WithReadOnlyTools(claude.ReadOnlyJudgeTurns)
	}
	res, err := run.Run(ctx, call)
	if err != nil {
		return Advisory{}, res, err
	}
	obj, err := responseObject(res)
	if err != nil {
		return Advisory{}, res, err
	}
	adv, err := validate(obj, s.ScoreThreshold)
	if err != nil {
		return Advisory{}, res, fmt.Errorf("the judge's response is invalid: %w", err)
	}
	return adv, res, nil
}
