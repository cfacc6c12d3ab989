// Package gate makes the pass-or-block decision for one iteration (§6); it is the only copy of those rules.
package gate

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// DissentExceeds reports whether dissent d is above threshold dt by more
// than rules.Tolerance, so D = DT never blocks. The loop uses it to decide
// whether to record dissent, keeping the rule in one place.
func DissentExceeds(d, dt float64) bool {
	return rules.Above(d, dt)
}

// ConsensusPassed reports whether aggregate a meets threshold t within
// rules.Tolerance; A = T passes. It is the gate's score_ok, the value of
// consensus.reached's passed, and the Stop hook's pass/fail.
func ConsensusPassed(a, t float64) bool {
	return rules.AtLeast(a, t)
}

// Input is everything the gate decides on (§6.1).
type Input struct {
	// Policy is judged as rules.Majority, with a warning, when it is not
	// one of rules.Policies.
	Policy rules.Policy
	// Verdicts is the whole panel in seat order, unusable and failed
	// verdicts included: they keep their seats and their floors.
	Verdicts         []verdict.Verdict
	Aggregate        float64
	Threshold        float64
	Meta             verdict.Meta
	Dissent          float64
	DissentThreshold float64
	// Rubric may be nil, in which case there are no floors.
	Rubric *rubric.Rubric
}

// Result is the gate's decision. Warnings are diagnostics for stderr and are
// not part of the gate's JSON.
type Result struct {
	Passed          bool         `json:"passed"`
	Reason          rules.Reason `json:"reason,omitempty"`
	FailedCriterion string       `json:"failed_criterion,omitempty"`
	// BlockedBy names the additional check that blocked (see Checks);
	// empty when the gate's own rules decided.
	BlockedBy rules.Check `json:"blocked_by,omitempty"`
	Warnings  []string    `json:"-"`
}

// Decide applies §6.3 in order. Every blocking result carries the first
// failed floor, when there is one, whatever the reason reported.
func Decide(in Input) Result {
	var warnings []string
	n, usable, approvals, failed := len(in.Verdicts), 0, 0, 0
	var failedLabels []string
	for _, v := range in.Verdicts {
		if _, ok := v.UsableScore(); ok {
			usable++
			if v.Passed {
				approvals++
			}
		}
		if v.Failed {
			failed++
			failedLabels = append(failedLabels, v.Label())
		}
	}
	if n > 0 && failed == n {
		// §4.1: when every seat failed, say so rather than leave the user
		// with a bare low_score.
		warnings = append(warnings, "tribunal-gate: every judge failed, so no verdict could approve: "+
			strings.Join(failedLabels, ", "))
	}

	fl := computeFloors(in.Verdicts, in.Rubric)
	block := func(reason rules.Reason) Result {
		return Result{Reason: reason, FailedCriterion: fl.failed, Warnings: warnings}
	}

	override := in.Meta.Override
	switch override {
	case verdict.OverrideAccept:
		if usable == 0 {
			// §11.14: an accept over a panel with no usable verdict would
			// pass work nobody scored.
			override = ""
		}
	case verdict.OverrideReject, verdict.OverrideReEvaluate:
	default:
		// A Meta built without NormaliseMeta may carry anything; only the
		// enum may act (§11.21).
		override = ""
	}

	if in.Policy == rules.MetaOverride {
		switch override {
		case verdict.OverrideAccept:
			if fl.failed != "" {
				return block(rules.ReasonCriterionFloor)
			}
			return Result{Passed: true, Warnings: warnings}
		case verdict.OverrideReject:
			return block(rules.ReasonMetaOverride)
		}
	}
	if in.Meta.BiasDetected && override == verdict.OverrideReject {
		return block(rules.ReasonBiasDetected)
	}
	// §11.20: only accept suppresses the dissent check.
	if DissentExceeds(in.Dissent, in.DissentThreshold) && override != verdict.OverrideAccept {
		return block(rules.ReasonDissentUnresolved)
	}

	var juryOK bool
	switch in.Policy {
	case rules.Strict, rules.Unanimous:
		juryOK = n > 0 && approvals == n
	case rules.Majority, rules.MetaOverride:
		juryOK = n > 0 && 2*approvals > n
	default:
		warnings = append(warnings, fmt.Sprintf("tribunal-gate: unknown policy %s, falling back to majority", in.Policy))
		juryOK = n > 0 && 2*approvals > n
	}
	scoreOK := ConsensusPassed(in.Aggregate, in.Threshold)
	if fl.anyReports && len(fl.unreported) > 0 {
		warnings = append(warnings, "tribunal-gate: no judge scored these criteria, so their min_pass floors did not apply: "+
			strings.Join(fl.unreported, ", "))
	}

	switch {
	case !scoreOK:
		return block(rules.ReasonLowScore)
	case !juryOK && override == verdict.OverrideReject:
		return block(rules.ReasonMetaOverride)
	case !juryOK:
		return block(rules.ReasonDissentUnresolved)
	case fl.failed != "":
		return block(rules.ReasonCriterionFloor)
	default:
		return Result{Passed: true, Warnings: warnings}
	}
}
