package session

import (
	"github.com/tribunal-cc/tribunal/internal/trust"
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

// TestGateSentence: the report's gate fields reach gate.Sentence (whose
// wording internal/gate tests) whole: floor numbers, trust reasons and the
// aggregate.
func TestGateSentence(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    GateReport
		agg  float64
		want string
	}{
		{"pass", GateReport{Passed: true}, 0.9, "passed at 0.90"},
		{"floor", GateReport{Reason: "criterion_floor", FailedCriterion: "safety", FloorScore: f(0.3), Floor: f(0.8)}, 0.82,
			"blocked (criterion_floor): safety scored 0.30, below its floor 0.80 despite an overall 0.82"},
		{"trust", GateReport{Reason: "dissent_unresolved", BlockedBy: "trust", Trust: &trust.Result{Reasons: []string{"spread"}}}, 0.9,
			"blocked (dissent_unresolved): untrustworthy jury: spread (the trust check, after the jury's gate passed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := GateSentence(tc.g, tc.agg); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	rep := &Report{
		TaskID: "T", Outcome: Exhausted, FinalScore: f(0.61), MaxIterations: 2, CostUSD: f(0.25), DurationMS: 4200,
		ArtifactDir: "/x/T",
		Iterations: []IterationReport{{
			Number:    0,
			Judges:    []JudgeReport{{Type: "standard", Score: f(0.9), Passed: true}, {Type: "adversarial", Failed: true}},
			Consensus: &ConsensusReport{Aggregate: 0.61, Dissent: 0.3, DissentRecorded: true},
			Meta:      MetaReport{Quality: "biased", Bias: true, BiasTypes: []string{"verbosity"}},
			Gate:      GateReport{Reason: "dissent_unresolved"},
		}},
	}
	got := Summary(rep)
	for _, want := range []string{
		"## tribunal ⏱ exhausted_iterations — score 0.61",
		"| 1 | standard 0.90 ✓, adversarial failed | 0.61 | 0.30 ⚑ | blocked (dissent_unresolved): the judges disagreed, or too few voted to pass |",
		"- iteration 1: jury biased; bias: verbosity",
		"Iterations 1 of 2 · cost $0.2500 · 4.2 s",
		"Artifacts: /x/T/",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	for outcome, glyph := range map[string]string{Accepted: "✓", "rejected": "✗", Exhausted: "⏱", Aborted: "⚠"} {
		if Glyph(outcome) != glyph {
			t.Errorf("Glyph(%s) = %s", outcome, Glyph(outcome))
		}
	}
}
