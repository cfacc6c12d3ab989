package main

import (
	"context"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/worktree"
)

// applyConflict says why a kept change did not apply and what can help:
// the overlapping files, then whether the commits made since the task
// started or the user's uncommitted edits touch them. Stashing helps only
// with uncommitted edits, so only then is it suggested.
func (c *cli) applyConflict(ctx context.Context, m *worktree.Manager, t *worktree.Task, conflicts []string) {
	o, err := m.Overlap(ctx, t, conflicts)
	if err != nil {
		c.warnf("%v", err)
	}
	show := "'git diff " + shortID(t.Snapshot) + " " + t.Branch + "' shows the change"
	switch {
	case len(o.Commits) > 0 && len(o.Edited) > 0:
		c.errorf("apply: task %s's change overlaps commits made since it started and your uncommitted edits; nothing was changed", t.ID)
	case len(o.Commits) > 0:
		c.errorf("apply: task %s's change overlaps commits made since it started; nothing was changed", t.ID)
	case len(o.Edited) > 0:
		c.errorf("apply: task %s's change does not apply cleanly beside your uncommitted edits; nothing was changed", t.ID)
	default:
		c.errorf("apply: task %s's change does not apply cleanly to your working tree; nothing was changed", t.ID)
	}
	c.item("files: " + strings.Join(conflicts, ", "))
	for _, commit := range o.Commits {
		c.item("commit " + commit)
	}
	if len(o.Edited) > 0 {
		c.item("edited, not committed: " + strings.Join(o.Edited, ", "))
	}
	if len(o.Commits) > 0 && len(o.Edited) == 0 {
		c.hint("the change was made against an older version of these files; %s, to carry over by hand — or discard it and run the task again on your current HEAD", show)
		return
	}
	if len(o.Edited) == 0 {
		c.hint("%s, to carry over by hand", show)
		return
	}
	c.hint("set your edits aside with 'git stash', run 'tribunal-session apply %s' again, then 'git stash pop' merges them back; %s", t.ID, show)
}
