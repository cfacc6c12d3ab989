package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/bestof"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// MaxCandidates caps `run --candidates N` (spec §7.17): every candidate
// is a whole run with its own actor, jury and worktree, so the cost and the
// machine's load grow with N. judge --candidates and the MCP verify tool
// hold a set of answers to the same cap (package bestof owns it).
const MaxCandidates = bestof.Max

// CandidateOf marks a task that runs as one candidate of a best-of-N task:
// its change is kept, never applied, until the parent chooses.
type CandidateOf struct {
	Parent string `json:"parent_task_id"`
	Index  int    `json:"index"`
	Of     int    `json:"of"`
}

// CandidatesError is the message of a --candidates value out of range.
func CandidatesError(n int) error {
	if n >= 1 && n <= MaxCandidates {
		return nil
	}
	return fmt.Errorf("--candidates must be between 1 and %d (got %d)", MaxCandidates, n)
}

// RunCandidates is `run --candidates N` (spec §7.17): N candidates run the
// task in parallel, each as a task of its own in its own worktree with the
// usual jury; the finalists are compared pairwise in both orders; only the
// winner's change is applied, the others stay kept on their refs. The
// error is non-nil when every candidate aborted (the first one's error) or
// the setup failed.
func RunCandidates(ctx context.Context, opts Options, d Deps) (*Report, error) {
	if err := CandidatesError(opts.Candidates); err != nil {
		return &Report{Task: opts.Task, Outcome: Aborted, Error: err.Error()}, &judging.ConfigError{Err: err}
	}
	if opts.InPlace {
		err := errors.New("--candidates runs each candidate in its own worktree; it cannot run --in-place")
		return &Report{Task: opts.Task, Outcome: Aborted, Error: err.Error()}, &judging.ConfigError{Err: err}
	}
	r, err := begin(ctx, opts, d)
	if err != nil {
		return r.report, err
	}
	r.writeManifests()
	start := r.sessionStart()
	r.emit(start)
	r.write(records.SessionStartFile, start)
	n := opts.Candidates
	r.progress("task %s: %d candidate(s) in parallel, each its own run with the usual jury (rubric %q, %d judge(s), up to %d iteration(s)); cost grows with the number of candidates",
		r.taskID, n, r.report.RubricID, r.report.Seats, r.params.MaxIterations)
	reports, errs := r.runCandidates(ctx, n)
	best := r.tallyCandidates(reports)
	r.report.BestOfN = best
	if ctx.Err() != nil {
		// Interrupted: no comparison, no choice, nothing applied; every
		// candidate's change stays kept.
		r.write(records.CandidatesFile, best)
		err := fmt.Errorf("%w while the candidates ran", ErrInterrupted)
		r.finish(ctx, Aborted, err)
		return r.report, err
	}
	r.compareFinalists(ctx, best, judging.PairwiseWork{Task: r.opts.Task, Context: records.PairwiseCandidates},
		func(c records.Candidate) judging.Contender { return r.contender(c, reports) })
	outcome := r.chooseWinner(ctx, best, reports)
	r.write(records.CandidatesFile, best)
	var runErr error
	if outcome == Aborted {
		runErr = allAborted(errs)
	}
	r.finish(ctx, outcome, runErr)
	r.report.Error = r.Redact.String(r.report.Error)
	return r.report, r.Redact.Error(runErr)
}

// allAborted is the error of a best-of-N task whose every candidate
// aborted: the first candidate's error, wrapped so that its kind (a
// budget, an interruption) still shows.
func allAborted(errs []error) error {
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("every candidate aborted; candidate %d: %w", i+1, err)
		}
	}
	return errors.New("every candidate aborted")
}

// runCandidates runs the n candidates at once and returns their reports
// and errors in candidate order. Their ids are minted here, in order, so
// that candidate k's id sorts before candidate k+1's.
func (r *runner) runCandidates(ctx context.Context, n int) ([]*Report, []error) {
	reports, errs := make([]*Report, n), make([]error, n)
	ids := make([]string, n)
	for i := range ids {
		id, err := r.newID()
		if err != nil {
			errs[i] = err
		}
		ids[i] = id
	}
	deps := r.Deps
	deps.Rand = &lockedReader{r: deps.Rand}
	var wg sync.WaitGroup
	var lines sync.Mutex
	for i := range n {
		if errs[i] != nil {
			reports[i] = &Report{Outcome: Aborted, Error: errs[i].Error()}
			continue
		}
		opts := r.opts
		opts.Candidates, opts.TaskID = 0, ids[i]
		opts.candidate = &CandidateOf{Parent: r.taskID, Index: i + 1, Of: n}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = Run(ctx, opts, prefixed(deps, &lines, fmt.Sprintf("candidate %d/%d: ", i+1, n)))
		}()
	}
	wg.Wait()
	return reports, errs
}

// prefixed is d whose progress, warning and note lines name the candidate,
// each line whole however the candidates interleave (mu is shared by all).
func prefixed(d Deps, mu *sync.Mutex, prefix string) Deps {
	d = d.withDefaults()
	wrap := func(f func(string)) func(string) {
		return func(s string) {
			mu.Lock()
			defer mu.Unlock()
			f(prefix + s)
		}
	}
	d.Progress, d.Warn, d.Note = wrap(d.Progress), wrap(d.Warn), wrap(d.Note)
	return d
}

// lockedReader lets the candidates' goroutines share one entropy source.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// tallyCandidates records each candidate's end and picks the finalists:
// the candidates the gate accepted, or, when it accepted none, the one
// best-scored candidate (lowest number among equals), which is named but
// not applied.
func (r *runner) tallyCandidates(reports []*Report) *records.BestOfN {
	best := &records.BestOfN{}
	var total float64
	seen := false
	for i, rep := range reports {
		c := records.Candidate{Index: i + 1, TaskID: rep.TaskID, Outcome: rep.Outcome, Score: rep.FinalScore,
			Iterations: len(rep.Iterations), CostUSD: rep.CostUSD, DurationMS: rep.DurationMS, Error: rep.Error,
			Finalist: rep.Outcome == Accepted}
		if rep.Isolation != nil {
			c.Branch, c.State = rep.Isolation.Branch, rep.Isolation.State
		}
		if rep.CostUSD != nil {
			total, seen = total+*rep.CostUSD, true
		}
		distrust(&c, rep)
		best.Candidates = append(best.Candidates, c)
	}
	if !anyFinalist(best.Candidates) {
		if k := bestScored(best.Candidates); k > 0 {
			best.Candidates[k-1].Finalist = true
		}
	}
	if seen {
		r.addCandidateCost(total)
	}
	return best
}

func anyFinalist(cs []records.Candidate) bool {
	for _, c := range cs {
		if c.Finalist {
			return true
		}
	}
	return false
}

// bestScored is the index of the best-scored candidate that did not abort
// and is trusted, a candidate without a score ranking below any score and the lower index
// first among equals (0: every candidate aborted).
func bestScored(cs []records.Candidate) int {
	k, top := 0, -2.0
	for _, c := range cs {
		s := -1.0
		if c.Score != nil {
			s = *c.Score
		}
		if c.Outcome != Aborted && c.Untrusted == "" && s > top {
			k, top = c.Index, s
		}
	}
	return k
}

// addCandidateCost adds what the candidates reported spending to the
// task's total.
func (r *runner) addCandidateCost(usd float64) {
	r.costMu.Lock()
	defer r.costMu.Unlock()
	r.costSeen = true
	r.cost += usd
}

// compareFinalists compares every pair of finalists in both orders, all
// pairs at once, through the pairwise judge (judging.Jury.Compare); the
// record lists them in pair order (1–2, 1–3, 2–3, …). base is what every
// comparison shares (the task or question, the context, whether answers
// are compared) and side what the judge is shown of a finalist: the one
// path of `run --candidates` and `judge --candidates`.
func (r *runner) compareFinalists(ctx context.Context, best *records.BestOfN, base judging.PairwiseWork, side func(records.Candidate) judging.Contender) {
	var fin []records.Candidate
	for _, c := range best.Candidates {
		if c.Finalist {
			fin = append(fin, c)
		}
	}
	if len(fin) < 2 {
		return
	}
	r.progress("task %s: comparing %d finalists pairwise, each pair in both orders (%s)…",
		r.taskID, len(fin), judging.ModelName(r.params.MetaModel))
	var pairs [][2]judging.Contender
	for i := range fin {
		for j := i + 1; j < len(fin); j++ {
			pairs = append(pairs, [2]judging.Contender{side(fin[i]), side(fin[j])})
		}
	}
	out := make([]records.Pairwise, len(pairs))
	var wg sync.WaitGroup
	for k, pair := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := base
			w.TaskID, w.A, w.B, w.Dir, w.ArtifactDir, w.FirstCall = r.taskID, pair[0], pair[1], r.repo.WorktreeRoot, "pairwise", 1+2*k
			out[k] = r.jury.Compare(ctx, w, taskRecorder{r})
			r.progress("task %s: candidate %d vs %d: %s", r.taskID, pair[0].Index, pair[1].Index, pairwiseWords(out[k]))
		}()
	}
	wg.Wait()
	best.Comparisons = out
}

// contender is a finalist as the pairwise judge sees it: its change
// against the snapshot and its actor's last message, read from its record.
func (r *runner) contender(c records.Candidate, reports []*Report) judging.Contender {
	rep := reports[c.Index-1]
	side := prompts.PairwiseSide{}
	if n := len(rep.Iterations); n > 0 && rep.ArtifactDir != "" {
		dir := filepath.Join(rep.ArtifactDir, records.IterationDir(rep.Iterations[n-1].IterationID))
		side.Diff = readText(filepath.Join(dir, records.DiffSnapshotFile))
		side.ActorOutput = readText(filepath.Join(dir, records.ActorFile))
	}
	return judging.Contender{ID: c.TaskID, Index: c.Index, Side: side}
}

// readText is a stored text artifact, "" when it cannot be read.
func readText(path string) string {
	data, err := records.ReadText(path, records.MaxArtifact)
	if err != nil {
		return ""
	}
	return string(data)
}

// pairwiseWords is one comparison as a progress line says it.
func pairwiseWords(p records.Pairwise) string {
	switch p.Result {
	case records.PreferA:
		return fmt.Sprintf("candidate %d preferred in both orders", p.AIndex)
	case records.PreferB:
		return fmt.Sprintf("candidate %d preferred in both orders", p.BIndex)
	}
	if p.AFirst != p.BFirst {
		return "tie (the two orders disagreed)"
	}
	return "tie"
}

// chooseWinner ranks the finalists, applies the winner's change when the
// gate accepted it, records the choice and returns the task's outcome:
// the winner's (accepted, or the best-scored candidate's), aborted when
// every candidate aborted.
func (r *runner) chooseWinner(ctx context.Context, best *records.BestOfN, reports []*Report) string {
	best.Winner, best.TieBreak = judging.Choose(standings(best, true))
	if best.Winner == 0 {
		return Aborted
	}
	w := &best.Candidates[best.Winner-1]
	rep := reports[best.Winner-1]
	r.report.FinalScore, r.report.Iterations, r.report.Guarded = w.Score, rep.Iterations, rep.Guarded
	if w.Outcome == Accepted {
		best.Applied = r.applyWinner(ctx, w, rep)
	}
	r.progress("task %s: candidate %d chosen (%d pairwise win(s)%s)%s", r.taskID, w.Index, w.Wins, tieBreakWords(best.TieBreak),
		map[bool]string{true: "; its change is in your working tree", false: ""}[best.Applied])
	if w.Outcome == Accepted {
		return Accepted
	}
	return Exhausted
}

// standings counts every candidate's pairwise wins into best and returns
// the finalists' standings (finalists true) or the others' (false), in
// candidate order, for judging.Choose and judging.Rank.
func standings(best *records.BestOfN, finalists bool) []judging.Standing {
	wins := judging.Wins(best.Comparisons)
	var out []judging.Standing
	for i := range best.Candidates {
		c := &best.Candidates[i]
		c.Wins = wins[c.Index]
		if c.Finalist == finalists {
			out = append(out, judging.Standing{Index: c.Index, Wins: c.Wins, Score: c.Score})
		}
	}
	return out
}

func tieBreakWords(s string) string {
	if s == "" {
		return ""
	}
	return ", tie broken " + s
}

// applyWinner applies the winning candidate's kept change to the user's
// working tree, as `tribunal-session apply` would, and records its fate in
// the candidate's report. A change that does not apply cleanly stays kept.
func (r *runner) applyWinner(ctx context.Context, w *records.Candidate, rep *Report) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if w.State != "kept" {
		return false
	}
	t, err := r.wt.Load(w.TaskID)
	if err != nil {
		r.Warn(fmt.Sprintf("the chosen candidate %d's change was not applied: %v", w.Index, err))
		return false
	}
	res, err := r.wt.Apply(ctx, t)
	switch {
	case err != nil:
		r.Warn(fmt.Sprintf("the chosen candidate %d's change was NOT applied (%s); it is kept as %s", w.Index, firstLine(err.Error(), 500), t.Branch))
		return false
	case len(res.Conflicts) > 0:
		r.Warn(fmt.Sprintf("the chosen candidate %d's change was NOT applied: it conflicts with your edits; it is kept as %s", w.Index, t.Branch))
		return false
	}
	if err := r.wt.Discard(ctx, t); err != nil {
		r.Warn(fmt.Sprintf("cleaning up candidate %d's ref: %v", w.Index, err))
	}
	w.State = "applied"
	_, err = UpdateIsolation(rep.ArtifactDir, "applied")
	r.storeErr(err)
	return true
}
