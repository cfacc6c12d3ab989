package judging

import (
	"slices"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestResolve is the position-swap rule: only a preference both orders
// agree on counts; disagreement, or a tie in either order, is a tie.
func TestResolve(t *testing.T) {
	const a, b, tie = records.PreferA, records.PreferB, records.PreferTie
	cases := []struct{ aFirst, bFirst, want string }{
		{a, a, a},
		{b, b, b},
		{a, b, tie}, // each order preferred whatever was shown first: position bias
		{b, a, tie}, // each order preferred whatever was shown second
		{a, tie, tie},
		{tie, b, tie},
		{tie, tie, tie},
		{"", "", tie}, // failed calls
	}
	for _, c := range cases {
		if got := Resolve(c.aFirst, c.bFirst); got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.aFirst, c.bFirst, got, c.want)
		}
	}
}

// TestUnswap maps an answer about the order shown back to the work's A and B.
func TestUnswap(t *testing.T) {
	cases := []struct {
		shown   string
		swapped bool
		want    string
	}{
		{prompts.PreferA, false, records.PreferA},
		{prompts.PreferB, false, records.PreferB},
		{prompts.PreferA, true, records.PreferB},
		{prompts.PreferB, true, records.PreferA},
		{prompts.PreferTie, true, records.PreferTie},
		{prompts.PreferTie, false, records.PreferTie},
	}
	for _, c := range cases {
		if got := unswap(c.shown, c.swapped); got != c.want {
			t.Errorf("unswap(%q, swapped=%v) = %q, want %q", c.shown, c.swapped, got, c.want)
		}
	}
}

func cmp(a, b int, aFirst, bFirst string) records.Pairwise {
	return records.Pairwise{AIndex: a, BIndex: b, AFirst: aFirst, BFirst: bFirst, Result: Resolve(aFirst, bFirst)}
}

// TestTallyAndChoose: wins from agreeing comparisons only, ties broken by
// final score and then by the lower candidate number.
func TestTallyAndChoose(t *testing.T) {
	const a, b, tie = records.PreferA, records.PreferB, records.PreferTie
	s := func(v float64) *float64 { return &v }
	cases := []struct {
		name      string
		scores    map[int]*float64
		compared  []records.Pairwise
		wantWins  map[int]int
		winner    int
		wantBreak string
	}{
		{"one finalist", map[int]*float64{2: s(0.8)}, nil, map[int]int{}, 2, ""},
		{"a clear winner", map[int]*float64{1: s(0.9), 2: s(0.8), 3: s(0.85)},
			[]records.Pairwise{cmp(1, 2, b, b), cmp(1, 3, tie, tie), cmp(2, 3, a, a)},
			map[int]int{2: 2}, 2, ""},
		{"order disagreement is no win", map[int]*float64{1: s(0.8), 2: s(0.9)},
			[]records.Pairwise{cmp(1, 2, a, b)}, map[int]int{}, 2, "by final score"},
		{"equal wins, equal scores: lower number", map[int]*float64{1: s(0.8), 2: s(0.8), 3: s(0.8)},
			[]records.Pairwise{cmp(1, 2, a, a), cmp(2, 3, a, a), cmp(1, 3, b, b)},
			map[int]int{1: 1, 2: 1, 3: 1}, 1, "by candidate number (equal wins and scores)"},
		{"a missing score ranks last", map[int]*float64{1: nil, 2: s(0.1)},
			[]records.Pairwise{cmp(1, 2, tie, a)}, map[int]int{}, 2, "by final score"},
		{"wins beat score", map[int]*float64{1: s(0.99), 2: s(0.81)},
			[]records.Pairwise{cmp(1, 2, b, b)}, map[int]int{2: 1}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wins := Wins(c.compared)
			if len(wins) != len(c.wantWins) {
				t.Errorf("wins = %v, want %v", wins, c.wantWins)
			}
			for k, v := range c.wantWins {
				if wins[k] != v {
					t.Errorf("wins = %v, want %v", wins, c.wantWins)
				}
			}
			var fin []Standing
			for i := 1; i <= 3; i++ {
				if sc, ok := c.scores[i]; ok {
					fin = append(fin, Standing{Index: i, Wins: wins[i], Score: sc})
				}
			}
			w, br := Choose(fin)
			if w != c.winner || br != c.wantBreak {
				t.Errorf("Choose = %d (%q), want %d (%q)", w, br, c.winner, c.wantBreak)
			}
		})
	}
	if w, _ := Choose(nil); w != 0 {
		t.Errorf("Choose(nil) = %d, want 0", w)
	}
}

// TestParsePairwise: only A, B or tie is an answer.
func TestParsePairwise(t *testing.T) {
	for text, ok := range map[string]bool{
		`{"preferred":"A","reason":"r"}`: true, `{"preferred":"tie"}`: true,
		`{"preferred":"a"}`: false, `{"preferred":1}`: false, `{}`: false, `not json`: false,
	} {
		_, _, err := parsePairwise(claude.Result{Text: text})
		if (err == nil) != ok {
			t.Errorf("parsePairwise(%s): err = %v, want ok=%v", text, err, ok)
		}
	}
}

// TestRank is the one order Choose's winner heads and `judge --strategy
// rank` prints: wins, then final score (none ranks last), then number.
func TestRank(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		in   []Standing
		want []int
	}{
		{"by wins", []Standing{{1, 0, f(0.9)}, {2, 2, f(0.8)}, {3, 1, f(0.7)}}, []int{2, 3, 1}},
		{"equal wins by score", []Standing{{1, 1, f(0.8)}, {2, 1, f(0.9)}}, []int{2, 1}},
		{"equal wins and scores by number", []Standing{{3, 0, f(0.9)}, {1, 0, f(0.9)}, {2, 0, f(0.9)}}, []int{1, 2, 3}},
		{"no score ranks last", []Standing{{1, 0, nil}, {2, 0, f(0)}}, []int{2, 1}},
		{"none", nil, nil},
	}
	for _, c := range cases {
		var got []int
		for _, s := range Rank(c.in) {
			got = append(got, s.Index)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Rank = %v, want %v", c.name, got, c.want)
		}
		if len(c.in) > 0 {
			if w, _ := Choose(c.in); w != c.want[0] {
				t.Errorf("%s: Choose = %d, want Rank's first %d", c.name, w, c.want[0])
			}
		}
	}
}
