package session

import (
	"context"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// The candidates of a best-of-N task run side by side, each actor with its
// tools in its own worktree — but nothing confines an actor to it: one can
// write into another candidate's worktree, whose judges then judge (and
// whose kept change holds) work its own actor never did. Each candidate
// fingerprints its worktree when its actor's turn ends and again before
// its change is kept; a difference marks the candidate, whose verdict is
// then not trusted and which is never chosen. A write made while the
// victim's own actor was still working cannot be told from that actor's.

// noteActorState records a candidate's worktree state as its actor left
// it.
func (r *runner) noteActorState(ctx context.Context) {
	// A lone candidate (--candidates 1) has no other actor to fear.
	if r.opts.candidate == nil || r.opts.candidate.Of < 2 || r.task == nil {
		return
	}
	r.actorState = worktreeState(ctx, r, r.workDir)
}

// checkActorState compares the candidate's worktree with the state its
// actor left, before the change is kept, and marks the record when it
// changed since.
func (r *runner) checkActorState(ctx context.Context) {
	if r.opts.candidate == nil || r.task == nil || r.actorState == "" {
		return
	}
	now := worktreeState(ctx, r, r.workDir)
	if now == r.actorState {
		return
	}
	r.report.Isolation.ChangedAfterActor = true
	r.Warn(untrustedWords(r.opts.candidate.Index))
}

// worktreeState is dir's git state fingerprint; a state git cannot read
// is a state of its own, so it counts as a change.
func worktreeState(ctx context.Context, r *runner, dir string) string {
	st, err := gitstate.Status(ctx, r.Git, dir)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	fp, err := gitstate.Fingerprint(ctx, r.Git, dir, st)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return fp
}

// untrustedWords is what the report and the record say of candidate k.
func untrustedWords(k int) string {
	return fmt.Sprintf("candidate %d's worktree changed after its actor finished (by another candidate's actor?): its verdict is not trusted", k)
}

// distrust marks the candidates whose worktree changed after their actor
// finished: never a finalist, never chosen.
func distrust(c *records.Candidate, rep *Report) {
	if rep.Isolation == nil || !rep.Isolation.ChangedAfterActor {
		return
	}
	c.Untrusted, c.Finalist = untrustedWords(c.Index), false
}
