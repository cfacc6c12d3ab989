package session

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// parentID is a candidate's best-of-N task ("" for any other task).
func (r *runner) parentID() string {
	if r.opts.candidate == nil {
		return ""
	}
	return r.opts.candidate.Parent
}

// guardRejects is the iteration guard (spec §7.17): with the guard on, a
// retry (iteration n > 0) that passed the gate is compared pairwise, in
// both orders, with the previous iteration's change. When both orders
// prefer the previous change the pass is not accepted: the task goes on
// to its next iteration as after a blocked gate, or ends exhausted after
// its last. A win or a tie (disagreeing orders, a failed call) lets the
// pass stand; so does a retry whose change is the previous one's, which
// is not asked about at all.
func (r *runner) guardRejects(ctx context.Context, it *iterationState) bool {
	n := it.Report.Number
	if !r.opts.guarded() || n == 0 || r.task == nil || len(r.history) < n+1 {
		return false
	}
	prev := &r.history[n-1]
	if prev.diff == it.diff {
		return false
	}
	dir := records.IterationDir(it.Report.IterationID)
	p := r.jury.Compare(ctx, judging.PairwiseWork{
		TaskID: r.taskID, Task: r.opts.Task, Context: records.PairwiseGuard,
		A:   judging.Contender{ID: prev.Report.IterationID, Index: n, Side: prompts.PairwiseSide{Diff: prev.diff, ActorOutput: prev.ActorOutput}},
		B:   judging.Contender{ID: it.Report.IterationID, Index: n + 1, Side: prompts.PairwiseSide{Diff: it.diff, ActorOutput: it.ActorOutput}},
		Dir: r.workDir, ArtifactDir: dir, FirstCall: it.NextCall(),
	}, taskRecorder{r})
	it.NextCall()
	r.write(filepath.Join(dir, records.GuardFile), p)
	r.report.Guarded = append(r.report.Guarded, p)
	if p.Result != records.PreferA {
		r.progress("[%d/%d] iteration guard: %s; the pass stands", n+1, r.params.MaxIterations, guardWords(p))
		return false
	}
	r.progress("[%d/%d] iteration guard: the judges preferred iteration %d's change in both orders; this pass is not accepted",
		n+1, r.params.MaxIterations, n)
	return true
}

// guardWords is a guard comparison that let the pass stand.
func guardWords(p records.Pairwise) string {
	if p.Result == records.PreferB {
		return fmt.Sprintf("iteration %d preferred to iteration %d in both orders", p.BIndex, p.AIndex)
	}
	return pairwiseWords(p)
}
