package session

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestCandidatesError: 1 to MaxCandidates are accepted, anything else is
// refused with the range and the value.
func TestCandidatesError(t *testing.T) {
	for n, ok := range map[int]bool{-1: false, 0: false, 1: true, 3: true, MaxCandidates: true, MaxCandidates + 1: false, 100: false} {
		err := CandidatesError(n)
		if (err == nil) != ok {
			t.Errorf("CandidatesError(%d) = %v, want ok=%v", n, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "between 1 and 5") {
			t.Errorf("CandidatesError(%d) = %q: the range is missing", n, err)
		}
	}
}

// TestBestScored: the finalist when the gate accepted no candidate.
func TestBestScored(t *testing.T) {
	s := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		cs   []records.Candidate
		want int
	}{
		{"highest score", []records.Candidate{{Index: 1, Outcome: Exhausted, Score: s(0.5)}, {Index: 2, Outcome: Exhausted, Score: s(0.7)}}, 2},
		{"lower index among equals", []records.Candidate{{Index: 1, Outcome: Exhausted, Score: s(0.7)}, {Index: 2, Outcome: Exhausted, Score: s(0.7)}}, 1},
		{"an aborted candidate never", []records.Candidate{{Index: 1, Outcome: Aborted, Score: s(0.9)}, {Index: 2, Outcome: Exhausted, Score: s(0.1)}}, 2},
		{"no score ranks below any", []records.Candidate{{Index: 1, Outcome: Exhausted}, {Index: 2, Outcome: Exhausted, Score: s(0)}}, 2},
		{"no score at all", []records.Candidate{{Index: 1, Outcome: Aborted}, {Index: 2, Outcome: Exhausted}}, 2},
		{"every candidate aborted", []records.Candidate{{Index: 1, Outcome: Aborted}, {Index: 2, Outcome: Aborted}}, 0},
	}
	for _, c := range cases {
		if got := bestScored(c.cs); got != c.want {
			t.Errorf("%s: bestScored = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestBestOfNSummary: the summary names the candidates, the comparisons,
// the choice with its tie-break, and the cost in all against the
// candidates' share.
func TestBestOfNSummary(t *testing.T) {
	s := func(v float64) *float64 { return &v }
	rep := &Report{TaskID: "01M94NGFKZK6DWP3VDJ9J1VD3B", Outcome: Accepted, CostUSD: s(0.55), BestOfN: &records.BestOfN{
		Candidates: []records.Candidate{
			{Index: 1, TaskID: "T1", Outcome: Accepted, Score: s(0.8), Iterations: 1, CostUSD: s(0.25), State: "kept", Branch: "refs/tribunal/tasks/T1", Finalist: true},
			{Index: 2, TaskID: "T2", Outcome: Accepted, Score: s(0.9), Iterations: 2, CostUSD: s(0.25), State: "applied", Finalist: true},
			{Index: 3, TaskID: "T3", Outcome: Exhausted, Score: s(0.4), Iterations: 3},
		},
		Comparisons: []records.Pairwise{{AIndex: 1, BIndex: 2, AFirst: "a", BFirst: "b", Result: "tie"}},
		Winner:      2, Applied: true, TieBreak: "by final score",
	}}
	got := Summary(rep)
	for _, want := range []string{
		"**Best of 3:** each candidate ran the task in its own worktree with the usual jury, so the cost is about 3 times one run's.",
		"| 2 ★ | `T2` | accepted | 0.90 | 2 | $0.2500 | 0 | applied |",
		"| 1 | `T1` | accepted | 0.80 | 1 | $0.2500 | 0 | kept as `refs/tribunal/tasks/T1` |",
		"| 3 | `T3` | not accepted | 0.40 | 3 | unknown | — (not a finalist) | — |",
		"- candidate 1 vs 2: tie (the two orders disagreed)",
		"**Chosen:** candidate 2 (0 pairwise win(s), tie broken by final score). **Your working tree:** its accepted change was applied",
		"**Cost:** $0.5500 in all: the candidates $0.5000, the pairwise judge the rest.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}
