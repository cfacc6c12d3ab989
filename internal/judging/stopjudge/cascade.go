package stopjudge

import (
	"context"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Reasons the cascade asks the stronger model.
const (
	escalateFailed = "failed"
	escalateUnsure = "unsure"
)

// escalation says whether a cheap verdict goes to the stronger model of
// the cascade (tribunal.stop_hook.escalate_model), and why: when it
// failed, or passed with a confidence below escalate_below ("unsure").
// "" keeps the cheap verdict.
func escalation(s config.StopHookSettings, a Verdict) string {
	switch {
	case s.EscalateModel == "" || s.EscalateModel == s.Model:
		return ""
	case !a.Passed:
		return escalateFailed
	case a.Confidence < s.EscalateBelow:
		return escalateUnsure
	}
	return ""
}

// Cascade is the Stop judge with its cheap-first cascade: Ask with
// s.Model, then, when escalation says so and strongTimeout (asked then)
// leaves time, Ask again with s.EscalateModel. The verdict is the
// stronger model's when it answered, else the cheap one's; the Result's
// cost is both calls'. Without an escalate_model it is Ask. calibrate
// --stop can call it on the same cases to show what the cascade saves.
func Cascade(ctx context.Context, run claude.Runner, s config.StopHookSettings, in prompts.StopInput, dir string, timeout time.Duration, strongTimeout func() time.Duration) (Verdict, claude.Result, error) {
	adv, res, err := Ask(ctx, run, s, in, dir, timeout)
	if err != nil || s.EscalateModel == "" || s.EscalateModel == s.Model {
		return adv, res, err
	}
	c := &records.Cascade{CheapModel: s.Model, CheapScore: adv.Score, CheapPassed: adv.Passed, CheapConfidence: adv.Confidence, CheapCostUSD: res.CostUSD}
	adv.Cascade = c
	why := escalation(s, adv)
	if why == "" {
		return adv, res, nil
	}
	c.Escalated, c.Why, c.StrongModel = true, why, s.EscalateModel
	left := strongTimeout()
	if left <= 0 {
		c.StrongError = "no time left before the deadline"
		return adv, res, nil
	}
	strong := s
	strong.Model = s.EscalateModel
	adv2, res2, err := Ask(ctx, run, strong, in, dir, left)
	res.CostUSD = addCost(res.CostUSD, res2.CostUSD)
	res.Duration += res2.Duration
	if err != nil {
		c.StrongError = fmt.Sprintf("%v", err)
		return adv, res, nil
	}
	adv2.Cascade, adv2.Model = c, s.EscalateModel
	return adv2, res, nil
}

// addCost sums two optional costs; nil only when both are.
func addCost(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	sum := *a + *b
	return &sum
}
