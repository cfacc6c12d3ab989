package gate

import (
	"encoding/json"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/trust"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func passing() Input {
	v := func(s string) verdict.Verdict {
		return verdict.Verdict{Score: json.RawMessage(s), Passed: true}
	}
	return Input{Policy: "majority", Verdicts: []verdict.Verdict{v("0.9"), v("0.85")},
		Aggregate: 0.875, Threshold: 0.75, Dissent: 0.05, DissentThreshold: 0.25}
}

func TestDecideWithChecks(t *testing.T) {
	untrusted := &trust.Result{Trustworthy: false, Reasons: []string{"spread"}}
	trusted := &trust.Result{Trustworthy: true}
	blocked := passing()
	blocked.Aggregate = 0.5
	for _, tc := range []struct {
		name    string
		in      Input
		c       Checks
		passed  bool
		reason  rules.Reason
		fc      string
		blocker rules.Check
	}{
		{"zero checks = core gate", passing(), Checks{}, true, "", "", ""},
		{"passing command", passing(), Checks{Commands: []CommandResult{{Name: "tests", Passed: true}}}, true, "", "", ""},
		{"failed command", passing(), Checks{Commands: []CommandResult{{Name: "lint", Passed: true}, {Name: "tests", Passed: false}}}, false, "criterion_floor", "command:tests", rules.ByCommand},
		{"severity below policy", passing(), Checks{Worst: severity.Major, FailAt: severity.Critical}, true, "", "", ""},
		{"severity at policy", passing(), Checks{Worst: severity.Critical, FailAt: severity.Critical}, false, "criterion_floor", "severity:critical", rules.BySeverity},
		{"severity policy off", passing(), Checks{Worst: severity.Blocker}, true, "", "", ""},
		{"untrusted, not blocking", passing(), Checks{Trust: untrusted}, true, "", "", ""},
		{"untrusted, blocking", passing(), Checks{Trust: untrusted, TrustBlocks: true}, false, "dissent_unresolved", "", rules.ByTrust},
		{"trusted, blocking", passing(), Checks{Trust: trusted, TrustBlocks: true}, true, "", "", ""},
		{"failed evaluator", passing(), Checks{Commands: []CommandResult{{Name: "no-todo", Passed: false, Evaluator: true}}}, false, "criterion_floor", "evaluator:no-todo", rules.ByCommand},
		{"command before severity", passing(), Checks{Commands: []CommandResult{{Name: "tests", Passed: false}}, Worst: severity.Blocker, FailAt: severity.Minor}, false, "criterion_floor", "command:tests", rules.ByCommand},
		{"core gate block wins", blocked, Checks{Commands: []CommandResult{{Name: "tests", Passed: false}}}, false, "low_score", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DecideWithChecks(tc.in, tc.c)
			if r.Passed != tc.passed || r.Reason != tc.reason || r.FailedCriterion != tc.fc || r.BlockedBy != tc.blocker {
				t.Errorf("got %+v, want passed=%v reason=%q fc=%q by=%q", r, tc.passed, tc.reason, tc.fc, tc.blocker)
			}
		})
	}
}
