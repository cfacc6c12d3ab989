package session

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/trust"
)

func f(v float64) *float64 { return &v }

// TestGateSentence: the report's gate fields reach gate.Sentence (whose
// wording internal/judging/gate tests) whole: floor numbers, trust reasons and the
// aggregate.
func TestGateSentence(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    judging.GateReport
		agg  float64
		want string
	}{
		{"pass", judging.GateReport{Passed: true}, 0.9, "passed at 0.90"},
		{"floor", judging.GateReport{Reason: "criterion_floor", FailedCriterion: "safety", FloorScore: f(0.3), Floor: f(0.8)}, 0.82,
			"blocked (criterion_floor): safety scored 0.30, below its floor 0.80 despite an overall 0.82"},
		{"trust", judging.GateReport{Reason: "dissent_unresolved", BlockedBy: "trust", Trust: &trust.Result{Reasons: []string{"spread"}}}, 0.9,
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
		Iterations: []judging.IterationReport{{
			Number:    0,
			Judges:    []judging.JudgeReport{{Type: "standard", Score: f(0.9), Passed: true}, {Type: "adversarial", Failed: true}},
			Consensus: &judging.ConsensusReport{Aggregate: 0.61, Dissent: 0.3, DissentRecorded: true},
			Meta:      judging.MetaReport{Quality: "biased", Bias: true, BiasTypes: []string{"verbosity"}},
			Gate:      judging.GateReport{Reason: "dissent_unresolved"},
		}},
	}
	got := Summary(rep)
	for _, want := range []string{
		"## tribunal ✗ not accepted — score 0.61",
		"| 1 | standard 0.90 ✓, adversarial failed | 0.61 | 0.30 ⚑ | blocked (dissent_unresolved): the judges disagreed, or too few voted to pass |",
		"- iteration 1: jury biased; bias: verbosity",
		"Iterations 1 of 2 · cost $0.2500 (no budget) · 4.2 s",
		"Artifacts: /x/T/",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestIsolationLines(t *testing.T) {
	id := "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	branch := "refs/tribunal/tasks/" + id
	for _, tc := range []struct {
		name    string
		outcome string
		iso     *records.Isolation
		want    []string
		not     []string
	}{
		{"in place says nothing", Accepted, &records.Isolation{Mode: "in_place", State: "in_place"}, nil, []string{"working tree"}},
		{"applied", Accepted, &records.Isolation{Mode: "worktree", Branch: branch, State: "applied"},
			[]string{"the accepted change was applied as uncommitted changes"}, []string{"apply " + id}},
		{"accepted but overlapping", Accepted, &records.Isolation{Mode: "worktree", Branch: branch, Snapshot: "0123456789abcdef", State: "kept", Conflicts: []string{"a.go", "b.go"}},
			[]string{"does not apply cleanly beside your edits (a.go, b.go)", "kept as `" + branch + "`", "tribunal-session apply " + id, "git diff 0123456789ab " + branch, "tribunal-session discard " + id}, nil},
		{"accepted, apply failed", Accepted, &records.Isolation{Mode: "worktree", Branch: branch, State: "kept", Error: "the change could not be applied: disk full"},
			[]string{"the accepted change could not be applied (the change could not be applied: disk full)", "kept as `" + branch + "`"}, []string{"cleanly"}},
		{"not accepted", Exhausted, &records.Isolation{Mode: "worktree", Branch: branch, State: "kept"},
			[]string{"unchanged — the change was not accepted", "applies it anyway"}, []string{"cleanly"}},
		{"nothing changed", Aborted, &records.Isolation{Mode: "worktree", Branch: branch, State: "unchanged"},
			[]string{"the actor changed no file"}, []string{branch}},
		{"applied later", Exhausted, &records.Isolation{Mode: "worktree", Branch: branch, State: "applied"},
			[]string{"not accepted by the gate, was applied later"}, nil},
		{"discarded", Exhausted, &records.Isolation{Mode: "worktree", Branch: branch, State: "discarded"},
			[]string{"the change was discarded"}, []string{"secrets"}},
		{"secrets left out", Exhausted, &records.Isolation{Mode: "worktree", Branch: branch, State: "kept", LeftOut: []string{".env", "secrets/id_ed25519"}},
			[]string{"**Untracked secrets:** left out 2 untracked files that look like secrets: .env, secrets/id_ed25519 — the actor and the judges never saw them.\n**Your working tree:** unchanged"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(isolationLines(&Report{TaskID: id, Outcome: tc.outcome, Isolation: tc.iso}), "\n")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("unexpectedly contains %q:\n%s", w, got)
				}
			}
		})
	}
}

// The summary states the budget the task ran under, so the cost of the
// next run is visible before it is spent.
func TestSummaryStatesTheBudget(t *testing.T) {
	cost, budget := 0.41, 5.0
	got := Summary(&Report{TaskID: "T", Outcome: Accepted, MaxIterations: 3, CostUSD: &cost, BudgetUSD: &budget})
	if !strings.Contains(got, "Iterations 0 of 3 · cost $0.4100 of a $5.00 budget · ") {
		t.Errorf("summary does not state the budget:\n%s", got)
	}
}
