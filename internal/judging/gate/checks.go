package gate

import (
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/trust"
)

// Checks are tribunal's additions to the core gate (docs/adr/007):
// required command judges, the severity policy and the trust gate over a
// seat's reps. Their zero value checks nothing, so Decide with zero Checks
// is exactly the core gate.
type Checks struct {
	// Commands are the required command judges' results.
	Commands []CommandResult
	// Worst is the worst finding severity any judge reported; FailAt is
	// the fail_at_or_above policy (severity.None = off).
	Worst  severity.Level
	FailAt severity.Level
	// Trust is the trust gate's result over the reps (nil = not run);
	// it blocks only when TrustBlocks is set.
	Trust       *trust.Result
	TrustBlocks bool
}

// CommandResult is one required command judge's or evaluator's outcome.
type CommandResult struct {
	Name   string
	Passed bool
	// Evaluator marks a rubric's evaluator (spec §2.11), which blocks
	// through the same check as a command judge, named "evaluator:<name>".
	Evaluator bool
}

// DecideWithChecks runs the core gate and then, only if it passed,
// the additional checks in a fixed order: a failed required command or
// evaluator (the
// project's tests failing means the work is not done, whatever the judges
// think), a finding at or above the severity policy, an untrustworthy
// jury. Each maps to a reason the onlooker schema allows: the first two to
// criterion_floor with a pseudo-criterion "command:<name>" or
// "severity:<level>", the last to dissent_unresolved (noise among reps is
// unresolved disagreement). BlockedBy names the check.
func DecideWithChecks(in Input, c Checks) Result {
	res := Decide(in)
	if !res.Passed {
		return res
	}
	for _, cmd := range c.Commands {
		if !cmd.Passed {
			f := "command:" + cmd.Name
			if cmd.Evaluator {
				f = "evaluator:" + cmd.Name
			}
			return Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: f, BlockedBy: rules.ByCommand, Warnings: res.Warnings}
		}
	}
	if severity.Blocks(c.Worst, c.FailAt) {
		return Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "severity:" + c.Worst.String(), BlockedBy: rules.BySeverity, Warnings: res.Warnings}
	}
	if c.TrustBlocks && c.Trust != nil && !c.Trust.Trustworthy {
		return Result{Reason: rules.ReasonDissentUnresolved, BlockedBy: rules.ByTrust, Warnings: res.Warnings}
	}
	return res
}
