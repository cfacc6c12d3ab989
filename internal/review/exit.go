package review

import "github.com/tribunal-cc/tribunal/internal/severity"

// Outcomes of a review.
const (
	Accepted  = "accepted"
	Rejected  = "rejected"
	NoVerdict = "no-verdict" // every judge failed: no judgement of the code
)

// Exit codes, as `run` has them.
const (
	ExitPass    = 0
	ExitBlock   = 10
	ExitAborted = 3
)

// Gating is how a review's result becomes its exit code.
type Gating struct {
	// Gate makes the exit code the verdict's even in CI.
	Gate bool
	// CI is set when the review runs in CI (the CI variable): advisory
	// unless Gate.
	CI bool
	// FailOn, when a rung, blocks on verified findings at or above it
	// instead of on the gate's decision.
	FailOn severity.Level
}

// Advisory says whether the review informs and never blocks.
func (g Gating) Advisory() bool { return g.CI && !g.Gate }

// Exit is the review's exit code: 0 under the advisory default whatever
// the verdict; otherwise 3 when no judge judged (never a verdict on the
// code), then with FailOn 10 only for a finding at or above it, without it
// 10 for a rejected change and 0 for an accepted one. worst is the worst
// verified finding still raised (dismissed ones excluded), ok false when
// there is none.
func (g Gating) Exit(outcome string, worst severity.Level, ok bool) int {
	switch {
	case g.Advisory():
		return ExitPass
	case outcome == NoVerdict:
		return ExitAborted
	case g.FailOn.Valid():
		if ok && severity.Blocks(worst, g.FailOn) {
			return ExitBlock
		}
		return ExitPass
	case outcome == Accepted:
		return ExitPass
	}
	return ExitBlock
}
