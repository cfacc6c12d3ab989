package gate

import (
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

func TestSentence(t *testing.T) {
	p := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		name string
		r    Result
		f    Facts
		want string
	}{
		{"passed", Result{Passed: true}, Facts{Aggregate: p(0.9)}, "passed at 0.90"},
		{"passed, no numbers", Result{Passed: true}, Facts{}, "passed"},
		{"low score", Result{Reason: rules.ReasonLowScore}, Facts{Aggregate: p(0.5)},
			"blocked (low_score): the aggregate 0.50 is below the score threshold"},
		{"low score, unknown aggregate", Result{Reason: rules.ReasonLowScore}, Facts{},
			"blocked (low_score): the aggregate is below the score threshold"},
		{"floor", Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "safety"}, Facts{Aggregate: p(0.84), FloorScore: p(0.3), Floor: p(0.8)},
			"blocked (criterion_floor): safety scored 0.30, below its floor 0.80 despite an overall 0.84"},
		{"floor, unreadable score", Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "safety"}, Facts{Aggregate: p(0.85), Floor: p(0.8)},
			"blocked (criterion_floor): safety scored an unreadable value (floor 0.80) despite an overall 0.85"},
		{"dissent", Result{Reason: rules.ReasonDissentUnresolved}, Facts{},
			"blocked (dissent_unresolved): the judges disagreed, or too few voted to pass"},
		{"meta override with a floor too", Result{Reason: rules.ReasonMetaOverride, FailedCriterion: "safety"}, Facts{FloorScore: p(0.3), Floor: p(0.8)},
			"blocked (meta_override): the meta-judge recommended reject; also safety scored 0.30, below its floor 0.80"},
		{"bias", Result{Reason: rules.ReasonBiasDetected}, Facts{},
			"blocked (bias_detected): the meta-judge found bias in the jury and recommended reject"},
		{"command", Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "command:tests", BlockedBy: rules.ByCommand}, Facts{},
			"blocked (criterion_floor): command judge tests failed (the command check, after the jury's gate passed)"},
		{"evaluator", Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "evaluator:no-todo", BlockedBy: rules.ByCommand}, Facts{},
			"blocked (criterion_floor): evaluator no-todo failed (a required check, after the jury's gate passed)"},
		{"severity", Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "severity:critical", BlockedBy: rules.BySeverity}, Facts{},
			"blocked (criterion_floor): a critical finding (the severity check, after the jury's gate passed)"},
		{"trust", Result{Reason: rules.ReasonDissentUnresolved, BlockedBy: rules.ByTrust}, Facts{TrustReasons: []string{"spread 0.6 > 0.5"}},
			"blocked (dissent_unresolved): untrustworthy jury: spread 0.6 > 0.5 (the trust check, after the jury's gate passed)"},
		{"unknown reason from another version", Result{Reason: "flaky"}, Facts{}, "blocked (flaky): flaky"},
	} {
		if got := Sentence(tc.r, tc.f); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
