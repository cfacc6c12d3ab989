package gate

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// Facts are the numbers a sentence about a decision quotes; nil means
// unknown, and the sentence leaves it out.
type Facts struct {
	Aggregate *float64
	// FloorScore is the failed criterion's lowest readable score (nil when
	// only unreadable values were reported); Floor is its min_pass.
	FloorScore, Floor *float64
	// TrustReasons say why the trust check found the jury untrustworthy.
	TrustReasons []string
}

// Sentence says what a decision means, in the one wording every report
// uses — the run summary, its progress lines and `show`: "passed at 0.90",
// or "blocked (<reason>): <why>". The reason word always stands in
// parentheses, so the record's value can be found in any of them.
func Sentence(r Result, f Facts) string {
	if r.Passed {
		if f.Aggregate != nil {
			return fmt.Sprintf("passed at %.2f", *f.Aggregate)
		}
		return "passed"
	}
	var why string
	switch {
	case r.BlockedBy == rules.ByCommand && strings.HasPrefix(r.FailedCriterion, "evaluator:"):
		// An evaluator is a deterministic check of the rubric's (an
		// answer's expected text, must_avoid, a schema), not a command:
		// "the command check" named tribunal's internals.
		why = "evaluator " + strings.TrimPrefix(r.FailedCriterion, "evaluator:") + " failed (a required check, after the jury's gate passed)"
	case r.BlockedBy == rules.ByCommand:
		why = "command judge " + strings.TrimPrefix(r.FailedCriterion, "command:") + " failed" + afterGate(r.BlockedBy)
	case r.BlockedBy == rules.BySeverity:
		why = "a " + strings.TrimPrefix(r.FailedCriterion, "severity:") + " finding" + afterGate(r.BlockedBy)
	case r.BlockedBy == rules.ByTrust:
		reasons := "the reps of one judge type disagree"
		if len(f.TrustReasons) > 0 {
			reasons = strings.Join(f.TrustReasons, "; ")
		}
		why = "untrustworthy jury: " + reasons + afterGate(r.BlockedBy)
	case r.BlockedBy != "":
		why = string(r.BlockedBy) + " check failed" + afterGate(r.BlockedBy)
	case r.Reason == rules.ReasonCriterionFloor && r.FailedCriterion != "":
		why = floorPhrase(r.FailedCriterion, f)
		if f.Aggregate != nil {
			why += fmt.Sprintf(" despite an overall %.2f", *f.Aggregate)
		}
	case r.Reason == rules.ReasonLowScore && f.Aggregate != nil:
		why = fmt.Sprintf("the aggregate %.2f is below the score threshold", *f.Aggregate)
	default:
		why = r.Reason.Meaning()
	}
	if r.BlockedBy == "" && r.FailedCriterion != "" && r.Reason != rules.ReasonCriterionFloor {
		why += "; also " + floorPhrase(r.FailedCriterion, f)
	}
	return fmt.Sprintf("blocked (%s): %s", r.Reason, why)
}

func afterGate(c rules.Check) string {
	return fmt.Sprintf(" (the %s check, after the jury's gate passed)", c)
}

// floorPhrase names a criterion below its floor, with the numbers known.
func floorPhrase(criterion string, f Facts) string {
	switch {
	case f.FloorScore != nil && f.Floor != nil:
		return fmt.Sprintf("%s scored %.2f, below its floor %.2f", criterion, *f.FloorScore, *f.Floor)
	case f.Floor != nil:
		return fmt.Sprintf("%s scored an unreadable value (floor %.2f)", criterion, *f.Floor)
	}
	return criterion + " is below its floor"
}
