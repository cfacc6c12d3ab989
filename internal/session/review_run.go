package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// kind is the record kind a run writes in its manifest.
func (r *runner) kind() string {
	switch {
	case r.review:
		return records.KindReview
	case r.answer != nil:
		return records.KindAnswer
	case r.opts.Candidates > 0:
		return records.KindBestOfN
	case r.opts.candidate != nil:
		return records.KindCandidate
	}
	return ""
}

// Run judges the change once, exactly as an iteration of `run` judges an
// actor's work (jury, meta-judge, gate, command judges in the head state),
// and records it as a task of kind review: manifest, events, artifacts,
// report, review.json and a signed ledger entry. Every judge failing is
// a result (outcome no-verdict), not an error; the error is an interrupt,
// the budget, or a head state that cannot be made.
func (v *Reviewer) Run(ctx context.Context) (*ReviewResult, error) {
	r := v.r
	c := v.opts.Change
	// The jury was loaded before the cache lookup without compiling its
	// schemas; a bad one stops the review here, before anything is
	// recorded or any model called.
	if err := r.jury.CheckSchemas(ctx); err != nil {
		return nil, err
	}
	// A change from review.Identify has no patch until it is loaded (the
	// CLI loads it after its cache lookup; Load runs once).
	if err := c.Load(ctx, r.Git, r.repo.WorktreeRoot); err != nil {
		return nil, err
	}
	v.diff, v.omitted = unidiff.RenderNoting(c.Files, v.opts.DiffBytes)
	// What the change left out before it was read (secrets, over-size
	// files) comes first: the judges were never shown it either.
	v.omitted = append(append([]string{}, c.Omitted...), v.omitted...)
	rec := records.Review{ReviewID: r.taskID, Change: c.Kind, Base: c.Base, Head: c.Head,
		BaseTree: c.BaseTree, HeadKey: c.HeadKey, Omitted: v.omitted, DiffBytes: v.opts.DiffBytes, Findings: []records.ReviewFinding{},
		PolicyFromBase: r.policyEdits(c.Files)}
	done, err := v.headState(ctx)
	if err != nil {
		return nil, &judging.ConfigError{Err: err, Hint: "review a range whose head is checked out, or pass --base REF with --diff: the commit the diff applies to"}
	}
	defer done()
	// The engine's Keep (withDismissals): findings people dismissed are
	// dropped before they are counted and weighed by the gate; the rest
	// are kept for review.json with their fingerprints.
	r.useDismissals(&dismissals{shared: v.opts.Dismissed, where: "review",
		onHit: func(dismiss.Hit) { rec.Dismissed++ },
		kept: func(f severity.Finding, fp string) {
			rec.Findings = append(rec.Findings, records.ReviewFinding{Finding: f, Fingerprint: fp})
		}})
	if c.Untrusted() {
		r.untrustMarkers(c.Files)
	}
	r.policyEdited, r.title = rec.PolicyFromBase, c.Title
	r.writeManifests()
	start := r.sessionStart()
	r.emit(start)
	r.write(records.SessionStartFile, start)
	r.progress("review %s: %s, rubric %q, %d judge(s)", r.taskID, describe(c), r.report.RubricID, r.report.Seats)
	for _, o := range v.omitted {
		r.progress("review %s: not shown to the judges: %s", r.taskID, o)
	}
	if len(rec.PolicyFromBase) > 0 {
		r.Warn(reviewfmt.PolicySentence(rec.PolicyFromBase))
	}
	it, runErr := v.round(ctx)
	outcome, sessionOutcome := roundOutcome(it, runErr)
	r.finish(ctx, sessionOutcome, runErr)
	rec.Outcome = outcome
	rec.Reason = reviewReason(outcome, it, runErr)
	if it != nil {
		carryVerification(rec.Findings, it.Findings)
	}
	r.write(records.ReviewFile, rec)
	res := &ReviewResult{Report: r.report, Record: rec, Gate: it.Report.Gate}
	res.Worst, res.Any = severity.WorstOf(it.Findings)
	if runErr != nil && !errors.Is(runErr, ErrNoVerdict) {
		return res, r.Redact.Error(runErr)
	}
	return res, nil
}

// round is the review's one iteration: its start event, then one round
// of the engine (jury, command judges, meta-judge, gate, ledger entry)
// over the head state, recorded in the review's store (judgeRound). The
// judges are shown the change as the review rendered it; the run's
// dismissals drop the dismissed findings before the gate weighs them.
func (v *Reviewer) round(ctx context.Context) (*iterationState, error) {
	return v.r.judgeOnce(ctx, v.actorLine(), "[review]", func(in *judging.Input) {
		in.Isolated, in.Diff, in.Files = true, v.diff, v.opts.Change.Files
	})
}

// judgeOnce is the one iteration of a round no actor preceded (a review,
// an answer): its start event, then one round of the engine (jury,
// command judges, meta-judge, gate, ledger entry) recorded in the task's
// store (judgeRound); set fills in what the judges are shown.
func (r *runner) judgeOnce(ctx context.Context, actorOutput, label string, set func(*judging.Input)) (*iterationState, error) {
	it, err := r.newIteration(0)
	if err != nil {
		return &iterationState{}, err
	}
	it.ActorOutput = actorOutput
	start := r.Now()
	r.emit(events.IterationStart{TaskID: r.taskID, IterationID: it.Report.IterationID, IterationNumber: 0, Trigger: "initial"})
	in := r.roundInput(it, records.IterationDir(it.Report.IterationID), label)
	set(&in)
	err = r.judgeRound(ctx, it, in)
	it.Report.DurationMS = r.msSince(start)
	r.report.Iterations = append(r.report.Iterations, it.Report)
	r.history = append(r.history, *it)
	return it, err
}

// roundOutcome is what one round's result makes of the record (accepted,
// rejected or no verdict, internal/review's words) and of the task.
func roundOutcome(it *iterationState, runErr error) (outcome, sessionOutcome string) {
	switch {
	case runErr != nil:
		// Every judge failed, or stopped (a signal, the budget) before the
		// gate: no judgement.
		return review.NoVerdict, Aborted
	case it.Report.Gate.Passed:
		return review.Accepted, Accepted
	}
	return review.Rejected, "rejected"
}

// reviewReason is the review's one-line reason.
func reviewReason(outcome string, it *iterationState, err error) string {
	switch {
	case errors.Is(err, ErrNoVerdict):
		return "not a judgement of the code: every judge failed (" + firstLine(err.Error(), 400) + ")"
	case err != nil:
		return "not a judgement of the code: stopped before the gate (" + firstLine(err.Error(), 400) + ")"
	}
	agg := 0.0
	if it.Report.Consensus != nil {
		agg = it.Report.Consensus.Aggregate
	}
	return GateSentence(it.Report.Gate, agg)
}

// headState points the judges (and command judges) at the change's head
// state: the user's own work tree when it is that state already (a CI
// checkout of the head, clean), else a worktree made for the review and
// removed by done.
func (v *Reviewer) headState(ctx context.Context) (done func(), err error) {
	r, c := v.r, v.opts.Change
	root := r.repo.WorktreeRoot
	if c.Kind == review.KindRange {
		head, herr := r.Git(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
		_, dirty := r.Git(ctx, root, "diff-index", "--quiet", "--no-ext-diff", "--no-textconv", "HEAD", "--")
		if herr == nil && dirty == nil && string(trimNL(head)) == c.Head {
			return func() {}, nil
		}
	}
	commit, patch := c.Base, c.Patch
	if c.Kind == review.KindRange {
		commit, patch = c.Head, nil
	}
	if err := r.worktrees(ctx); err != nil {
		return nil, err
	}
	t, err := r.wt.Checkout(ctx, root, r.taskID, commit, patch)
	if err != nil {
		return nil, err
	}
	r.workDir = t.Path
	r.report.Isolation = &records.Isolation{Mode: "review", Worktree: t.Path, Head: commit, State: "unchanged"}
	return func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if err := r.wt.Finish(cctx, t, false); err != nil {
			r.Warn(fmt.Sprintf("removing the review's worktree: %v", err))
		}
		r.report.Isolation.Worktree = ""
	}, nil
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// carryVerification copies the verification step's outcome (spec §6.8),
// which follows the dismissal filter that recorded the review's findings,
// onto them: the same finding, by judge, severity, location and message.
func carryVerification(kept []records.ReviewFinding, verified []severity.Finding) {
	type key struct {
		judge, sev, file, msg string
		line                  int
	}
	at := map[key][]severity.Finding{}
	for _, f := range verified {
		if f.Verification != "" {
			k := key{f.Judge, f.Severity, f.File, f.Message, f.Line}
			at[k] = append(at[k], f)
		}
	}
	for i := range kept {
		f := &kept[i].Finding
		k := key{f.Judge, f.Severity, f.File, f.Message, f.Line}
		if q := at[k]; len(q) > 0 {
			f.Verification, f.VerificationNote = q[0].Verification, q[0].VerificationNote
			at[k] = q[1:]
		}
	}
}
