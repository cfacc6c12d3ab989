package judging

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Pairwise judging (spec §7.17): two changes for the same task are shown to
// the pairwise judge twice, once in each order, because judges favour a
// position; only an answer that survives the swap counts, and two orders
// that disagree make a tie. The pairwise judge is the meta-judge's model
// and provider: one more call per order, never a seat of the jury.

// Contender is one change a pairwise comparison shows: its id (a
// candidate's task id or an iteration's id), its number (a candidate's
// index or an iteration's number + 1) and what the judge reads of it.
type Contender struct {
	ID    string
	Index int
	Side  prompts.PairwiseSide
}

// PairwiseWork is one comparison to make: the task, what kind of
// comparison it is (records.PairwiseCandidates or PairwiseGuard), the two
// contenders, where the judge runs and where its call records go.
type PairwiseWork struct {
	TaskID, Task, Context string
	A, B                  Contender
	Dir, ArtifactDir      string
	Label                 string
	// FirstCall numbers the two call records (FirstCall, FirstCall+1).
	FirstCall int
	// Answers compares two answers to the question Task (the contenders'
	// Side.Answer; `judge --candidates`, spec §7.20), Expected the
	// reference answer ("" when none).
	Answers  bool
	Expected string
}

// Resolve is the position-swap rule: the preference when the two orders
// agree on it, otherwise a tie. Each answer is already in A/B terms
// (records.PreferA, PreferB, PreferTie), whichever order was shown.
func Resolve(aFirst, bFirst string) string {
	if aFirst == bFirst && (aFirst == records.PreferA || aFirst == records.PreferB) {
		return aFirst
	}
	return records.PreferTie
}

// Wins counts each contender's pairwise wins (by index) over comparisons:
// a result that prefers one side is a win for it; a tie is no one's.
func Wins(comparisons []records.Pairwise) map[int]int {
	wins := map[int]int{}
	for _, c := range comparisons {
		switch c.Result {
		case records.PreferA:
			wins[c.AIndex]++
		case records.PreferB:
			wins[c.BIndex]++
		}
	}
	return wins
}

// Standing is a finalist as the choice ranks it.
type Standing struct {
	Index int
	Wins  int
	// Score is the candidate's final aggregate (nil: none).
	Score *float64
}

// Choose ranks finalists (Rank) and returns the first. tieBreak says which
// rule decided when the leaders had as many wins ("" when wins alone
// decided or there was one finalist).
func Choose(finalists []Standing) (winner int, tieBreak string) {
	if len(finalists) == 0 {
		return 0, ""
	}
	s := Rank(finalists)
	if len(s) > 1 && s[0].Wins == s[1].Wins {
		tieBreak = "by final score"
		if scoreOf(s[0]) == scoreOf(s[1]) {
			tieBreak = "by candidate number (equal wins and scores)"
		}
	}
	return s[0].Index, tieBreak
}

// Rank orders finalists by pairwise wins, then by final score (a missing
// score ranks below any score), then by the lower index: the one order
// Choose's winner heads and `judge --strategy rank` prints.
func Rank(finalists []Standing) []Standing {
	s := append([]Standing(nil), finalists...)
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Wins != b.Wins {
			return a.Wins > b.Wins
		}
		if sa, sb := scoreOf(a), scoreOf(b); sa != sb {
			return sa > sb
		}
		return a.Index < b.Index
	})
	return s
}

func scoreOf(s Standing) float64 {
	if s.Score == nil {
		return -1
	}
	return *s.Score
}

// Compare asks the pairwise judge about w in both orders at once and
// records the comparison: its two call records, its event, its cost. A
// call that fails or answers outside the schema counts as a tie for its
// order (and so, through Resolve, for the comparison): a failed judge
// never makes a winner.
func (j *Jury) Compare(ctx context.Context, w PairwiseWork, rec Recorder) records.Pairwise {
	p := records.Pairwise{Context: w.Context, A: w.A.ID, B: w.B.ID, AIndex: w.A.Index, BIndex: w.B.Index,
		Model: j.params.MetaModel, Reasons: make([]string, 2)}
	answers := make([]string, 2)
	errs := make([]string, 2)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for order := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answer, reason, cost, err := j.compareOnce(ctx, w, order == 1, rec)
			mu.Lock()
			defer mu.Unlock()
			answers[order], p.Reasons[order], p.CostUSD = answer, reason, p.CostUSD+cost
			if err != nil {
				errs[order] = err.Error()
			}
		}()
	}
	wg.Wait()
	p.AFirst, p.BFirst = answers[0], answers[1]
	p.Result = Resolve(p.AFirst, p.BFirst)
	for _, e := range errs {
		if e != "" {
			p.Errors = append(p.Errors, e)
		}
	}
	// Told as the canonical verdict of the pairwise judge (spec §7.17).
	ev := events.Pairwise{TaskID: w.TaskID, Context: w.Context, AID: w.A.ID, BID: w.B.ID,
		AFirst: p.AFirst, BFirst: p.BFirst, Result: p.Result, ModelID: j.params.MetaModel}
	if w.Context == records.PairwiseGuard {
		ev.IterationID = w.B.ID
	}
	if id, err := rec.NewID(); err == nil {
		ev.JudgeID = id
	}
	rec.Emit(events.PairwiseVerdict(ev))
	return p
}

// compareOnce is one order's call: B shown first when swapped. The answer
// comes back in A/B terms of w, not of the order shown.
func (j *Jury) compareOnce(ctx context.Context, w PairwiseWork, swapped bool, rec Recorder) (answer, reason string, cost float64, err error) {
	first, second, label, seq := w.A, w.B, "pairwise-a-first", w.FirstCall
	if swapped {
		first, second, label, seq = w.B, w.A, "pairwise-b-first", w.FirstCall+1
	}
	if err := rec.Budget("meta", 1); err != nil {
		return records.PreferTie, "", 0, err
	}
	system := prompts.PairwiseSystem
	if w.Answers {
		system = prompts.PairwiseAnswerSystem
	}
	call := claude.Call{
		Role: "pairwise", SystemPrompt: system, Model: j.params.MetaModel,
		Prompt: prompts.PairwisePrompt(prompts.PairwiseInput{Task: w.Task, Criteria: j.Criteria(), A: first.Side, B: second.Side,
			Answers: w.Answers, Expected: w.Expected}),
		JSONSchema: prompts.PairwiseSchema(), Tools: []string{}, MaxTurns: metaMaxTurns, StrictMCP: true,
		MaxOutputTokens: j.params.MetaMaxTokens, Dir: w.Dir, Timeout: j.params.MetaTimeout,
	}
	res, err := j.metaRunner().Run(ctx, call)
	rec.Write(records.CallPath(w.ArtifactDir, seq, label), CallRecord(j.prov.meta, records.CallMeta{Role: "pairwise"}, call, res, err))
	rec.AddCost("meta", res)
	if err != nil {
		return records.PreferTie, "", costOf(res), fmt.Errorf("%s: %w", label, err)
	}
	shown, reason, err := parsePairwise(res)
	if err != nil {
		return records.PreferTie, "", costOf(res), fmt.Errorf("%s: %w", label, err)
	}
	return unswap(shown, swapped), reason, costOf(res), nil
}

// parsePairwise reads the judge's answer as the order showed it (A, B or
// tie) and its reason.
func parsePairwise(res claude.Result) (string, string, error) {
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	}
	obj, err := verdict.ParseOutput(text)
	if err != nil {
		return "", "", fmt.Errorf("the pairwise judge's answer: %w", err)
	}
	var preferred, reason string
	if json.Unmarshal(obj["preferred"], &preferred) != nil ||
		(preferred != prompts.PreferA && preferred != prompts.PreferB && preferred != prompts.PreferTie) {
		return "", "", fmt.Errorf("the pairwise judge's preferred is %s, not A, B or tie", firstLine(string(obj["preferred"]), 60))
	}
	_ = json.Unmarshal(obj["reason"], &reason)
	return preferred, reason, nil
}

// unswap turns an answer about the order shown into A/B terms of the work.
func unswap(shown string, swapped bool) string {
	switch {
	case shown == prompts.PreferTie:
		return records.PreferTie
	case (shown == prompts.PreferA) != swapped:
		return records.PreferA
	default:
		return records.PreferB
	}
}

// costOf is a call's reported cost, 0 when it reported none.
func costOf(res claude.Result) float64 {
	if res.CostUSD == nil {
		return 0
	}
	return *res.CostUSD
}
