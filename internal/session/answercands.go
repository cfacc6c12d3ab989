package session

import (
	"context"
	"fmt"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/answer"
	"github.com/tribunal-cc/tribunal/internal/judging/bestof"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// `judge --candidates` strategies (spec §7.20).
const (
	StrategyBest  = bestof.Best
	StrategyRank  = bestof.Rank
	StrategyMerge = bestof.Merge
)

// Strategies lists the strategies, the default first.
var Strategies = bestof.Strategies

// CandidatesResult is a judged set of candidate answers: the set's own
// record (kind best_of_n, its candidates.json), each candidate's judged
// answer in candidate order, and the answer chosen — the winner's, or
// the merged answer's.
type CandidatesResult struct {
	ID      string
	Record  *records.BestOfN
	Answers []*AnswerResult
	// Errors are the candidates' errors, in candidate order (an interrupt
	// or the budget; every judge failing is a result, not an error).
	Errors []error
	// Chosen is the winner's answer, or Merged; nil when there is none
	// (every candidate stopped, or the merged answer's round did).
	Chosen *AnswerResult
	Merged *AnswerResult
	// MergedErr is the merged answer's round's error (an interrupt or the
	// budget), as Errors are the candidates'.
	MergedErr error
}

// Candidates judges several answers to one question (`judge --candidates`,
// spec §7.20): each as an answer of its own with the set-up jury, at once;
// then, by strategy, the finalists compared pairwise in both orders by
// the pairwise judge of `run --candidates` (best, rank), or one answer
// written from the accepted ones by the synthesiser and judged as any
// answer (merge; with fewer than two accepted it falls back to best and
// says so). cases share the question; files name them.
func (a *Answerer) Candidates(ctx context.Context, strategy string, cases []answer.Case, files []string) (*CandidatesResult, error) {
	n := len(cases)
	p, err := a.fork(cases[0], child{})
	if err != nil {
		return nil, err
	}
	// The set's own record: kind best_of_n, no iteration of its own.
	p.answer, p.opts.Candidates = nil, n
	p.writeManifests()
	start := p.sessionStart()
	p.emit(start)
	p.write(records.SessionStartFile, start)
	p.progress("judge %s: %d candidate answers, each judged as an answer (rubric %q, %d judge(s)), then %s",
		p.taskID, n, p.report.RubricID, p.report.Seats, strategyWords(strategy))
	res := &CandidatesResult{ID: p.taskID}
	res.Answers, res.Errors = a.judgeCandidates(ctx, p, cases)
	reports := make([]*Report, n)
	for i, ar := range res.Answers {
		reports[i] = &Report{Outcome: Aborted}
		if ar != nil {
			reports[i] = ar.Report
		}
	}
	best := p.tallyCandidates(reports)
	best.Strategy, best.Used = strategy, strategy
	for i := range best.Candidates {
		best.Candidates[i].File = files[i]
	}
	res.Record = best
	p.report.BestOfN = best
	p.allowSetCalls()
	if ctx.Err() == nil && strategy == StrategyMerge {
		a.merge(ctx, p, res, cases[0])
	}
	if ctx.Err() == nil && best.Used != StrategyMerge {
		a.rankCandidates(ctx, p, res, cases)
	}
	p.write(records.CandidatesFile, best)
	outcome := Aborted
	if res.Chosen != nil {
		outcome = res.Chosen.Report.Outcome
		p.report.Iterations = res.Chosen.Report.Iterations
	}
	p.finish(ctx, outcome, ctx.Err())
	return res, ctx.Err()
}

// judgeCandidates judges every candidate at once, each an answer record
// whose manifest names the set; ids are minted first, in candidate order.
func (a *Answerer) judgeCandidates(ctx context.Context, p *runner, cases []answer.Case) ([]*AnswerResult, []error) {
	n := len(cases)
	out, errs := make([]*AnswerResult, n), make([]error, n)
	ids := make([]string, n)
	for i := range ids {
		ids[i], errs[i] = p.newID()
	}
	var wg sync.WaitGroup
	var lines sync.Mutex
	for i := range n {
		if errs[i] != nil {
			continue
		}
		d := prefixed(a.t.Deps, &lines, fmt.Sprintf("candidate %d/%d: ", i+1, n))
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = a.judge(ctx, cases[i], child{id: ids[i], of: &CandidateOf{Parent: p.taskID, Index: i + 1, Of: n}, deps: &d})
		}()
	}
	wg.Wait()
	return out, errs
}

// rankCandidates is best and rank: the finalists (the accepted answers;
// with none, the best-scored one, named but rejected) compared pairwise
// in both orders; the order is the finalists by wins, final score and
// number (judging.Rank), then the others by final score and number.
func (a *Answerer) rankCandidates(ctx context.Context, p *runner, res *CandidatesResult, cases []answer.Case) {
	best := res.Record
	p.compareFinalists(ctx, best, judging.PairwiseWork{Task: cases[0].Question, Context: records.PairwiseAnswers, Answers: true, Expected: cases[0].Expected},
		func(c records.Candidate) judging.Contender {
			return judging.Contender{ID: c.TaskID, Index: c.Index, Side: prompts.PairwiseSide{Answer: cases[c.Index-1].Answer}}
		})
	fin := standings(best, true)
	best.Winner, best.TieBreak = judging.Choose(fin)
	best.Order = nil
	for _, s := range append(judging.Rank(fin), judging.Rank(standings(best, false))...) {
		best.Order = append(best.Order, s.Index)
	}
	if best.Winner > 0 {
		res.Chosen = res.Answers[best.Winner-1]
		w := best.Candidates[best.Winner-1]
		p.progress("judge %s: candidate %d (%s) chosen (%d pairwise win(s)%s)", p.taskID, w.Index, w.File, w.Wins, tieBreakWords(best.TieBreak))
	}
}

// merge asks the synthesiser for one answer from the accepted candidates
// and judges it as an answer of the set; with fewer than two accepted, or
// a synthesiser that fails, it says so and leaves best to decide.
func (a *Answerer) merge(ctx context.Context, p *runner, res *CandidatesResult, c answer.Case) {
	best := res.Record
	var from []string
	for _, k := range best.Candidates {
		if k.Outcome == Accepted {
			from = append(from, res.Answers[k.Index-1].Record.Answer)
		}
	}
	fallBack := func(why string) {
		best.Used, best.Note = StrategyBest, why+"; fell back to best"
		p.Warn(fmt.Sprintf("judge --strategy merge: %s; falling back to best", why))
	}
	if len(from) < 2 {
		fallBack(fmt.Sprintf("merge needs at least 2 accepted candidates, and %d was accepted", len(from)))
		return
	}
	p.progress("judge %s: the synthesiser (%s) writes one answer from the %d accepted candidates…", p.taskID, judging.ModelName(p.jury.SynthesiserModel()), len(from))
	text, err := p.jury.Synthesise(ctx, judging.SynthesisWork{Input: prompts.SynthesisInput{
		Question: c.Question, Criteria: p.jury.Criteria(), Extra: c.Criteria, Expected: c.Expected,
		Context: c.Context, Format: c.Format, Candidates: from}, Dir: p.repo.WorktreeRoot, ArtifactDir: "synthesis"}, taskRecorder{p})
	if err != nil {
		fallBack(firstLine(err.Error(), 300))
		return
	}
	m := c
	m.ID, m.Answer = "merged", text
	id, _ := p.newID()
	d := prefixed(a.t.Deps, &sync.Mutex{}, "merged: ")
	ar, err := a.judge(ctx, m, child{id: id, of: &CandidateOf{Parent: p.taskID, Index: len(best.Candidates) + 1, Of: len(best.Candidates)}, deps: &d})
	if ar == nil {
		fallBack(fmt.Sprintf("the merged answer was not judged: %v", err))
		return
	}
	res.Merged, res.Chosen, res.MergedErr, best.Merged = ar, ar, err, ar.ID
	if ar.Report.CostUSD != nil {
		p.addCandidateCost(*ar.Report.CostUSD)
	}
}

// allowSetCalls gives the set's own calls (the pairwise judge, the
// synthesiser) the per-answer budget on top of what the candidates spent:
// --budget-usd caps each answer's judging, and the candidates' spend,
// counted into the set's, must not leave its comparisons without one.
func (r *runner) allowSetCalls() {
	if r.params.BudgetUSD == nil {
		return
	}
	r.costMu.Lock()
	allow := *r.params.BudgetUSD + r.cost
	r.costMu.Unlock()
	r.params.BudgetUSD = &allow
}

func strategyWords(s string) string {
	switch s {
	case StrategyMerge:
		return "one answer merged from the accepted ones and judged"
	case StrategyRank:
		return "every candidate ranked (the accepted ones compared pairwise, both orders)"
	}
	return "the best chosen (the accepted ones compared pairwise, both orders)"
}

// SynthesiserClash is judging.Jury.SynthesiserClash for this set-up: nil
// when no seat that would judge a merged answer calls the synthesiser's
// model.
func (a *Answerer) SynthesiserClash() error { return a.t.jury.SynthesiserClash() }
