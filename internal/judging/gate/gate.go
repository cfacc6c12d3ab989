// Package gate makes the pass-or-block decision for one iteration (spec
// §6); it is the only copy of those rules.
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

// Input is everything the gate decides on (spec §6.1).
type Input struct {
	// Policy is judged as rules.Majority, with a warning, when
	// rules.ParsePolicy does not accept it.
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

// Decide applies spec §6.3 in order. Every blocking result carries the first
// failed floor, when there is one, whatever the reason reported.
func Decide(in Input) Result {
	t := count(in.Verdicts)
	var warnings []string
	if t.allFailed != "" {
		warnings = append(warnings, t.allFailed)
	}
	fl := computeFloors(in.Verdicts, in.Rubric)
	block := func(reason rules.Reason) Result {
		return Result{Reason: reason, FailedCriterion: fl.failed, Warnings: warnings}
	}
	override := actingOverride(in.Meta.Override, t.usable)

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
	// spec §A.20: only accept suppresses the dissent check.
	if DissentExceeds(in.Dissent, in.DissentThreshold) && override != verdict.OverrideAccept {
		return block(rules.ReasonDissentUnresolved)
	}

	juryOK, unknown := vote(in.Policy, t.n, t.approvals)
	if unknown != "" {
		warnings = append(warnings, unknown)
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

// tally is what the vote needs to know about a panel.
type tally struct {
	n, usable, approvals int
	// allFailed is the warning when every seat failed (spec §4.1), so the user
	// is not left with a bare low_score; "" otherwise.
	allFailed string
}

// count tallies the panel: every seat, the usable verdicts, and the
// approving votes, which need a usable score.
func count(vs []verdict.Verdict) tally {
	t := tally{n: len(vs)}
	var failed []string
	for _, v := range vs {
		if _, ok := v.UsableScore(); ok {
			t.usable++
			if v.Passed {
				t.approvals++
			}
		}
		if v.Failed {
			failed = append(failed, v.Label())
		}
	}
	if t.n > 0 && len(failed) == t.n {
		t.allFailed = "tribunal-gate: every judge failed, so no verdict could approve: " + strings.Join(failed, ", ")
	}
	return t
}

// actingOverride returns the meta-judge's override when it may act, else
// "". Only the enum may act: a Meta built without NormaliseMeta may carry
// anything (spec §A.21). An accept over a panel with no usable verdict would
// pass work nobody scored (spec §A.14).
func actingOverride(o string, usable int) string {
	switch o {
	case verdict.OverrideAccept:
		if usable == 0 {
			return ""
		}
		return o
	case verdict.OverrideReject, verdict.OverrideReEvaluate:
		return o
	}
	return ""
}

// vote applies the policy's rule to n seats with the given approvals; an
// unknown policy is judged as majority, with the warning returned.
func vote(p rules.Policy, n, approvals int) (bool, string) {
	majority := n > 0 && 2*approvals > n
	switch p {
	case rules.Strict, rules.Unanimous:
		return n > 0 && approvals == n, ""
	case rules.Majority, rules.MetaOverride:
		return majority, ""
	case rules.Any:
		return approvals >= 1, ""
	}
	if k, ok := p.AtLeastN(); ok {
		return approvals >= k, ""
	}
	return majority, fmt.Sprintf("tribunal-gate: unknown policy %s, falling back to majority", p)
}
