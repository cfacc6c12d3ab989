package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// exitNotApplied: apply found the change conflicting with the working
// tree; nothing was changed.
const exitNotApplied = 1

// keptTask finds a kept task of the current repository's project. A
// non-zero code means the error was printed.
func (c *cli) keptTask(ctx context.Context, name string, args []string) (*worktree.Manager, *worktree.Task, int) {
	args, ok := c.positional(name, args)
	if !ok {
		return nil, nil, exitUsage
	}
	if len(args) != 1 {
		c.errorf("usage: tribunal-session %s TASK_ID|last", name)
		return nil, nil, exitUsage
	}
	h, ok := c.locate(ctx, name, "run it inside the repository the task ran in")
	if !ok {
		return nil, nil, exitUsage
	}
	m := c.worktrees(h.project)
	kept := func(id string) (string, error) {
		return records.ResolveID(slices.DeleteFunc(m.RecordIDs(), func(id string) bool { return !records.ValidID(id) }), id, "kept task")
	}
	id, ok := resolveOne(c, name, args[0], kept,
		fmt.Sprintf("'tribunal-session log' lists the kept changes under the table; give one's id, any part of it of at least %d characters, or 'last'", records.MinPrefix))
	if !ok {
		return nil, nil, exitUsage
	}
	t, err := m.Load(id)
	if err != nil {
		c.errorf("%s: %v", name, err)
		c.hint("only a task whose change was not applied is kept; 'tribunal-session log' lists tasks, 'git for-each-ref %s' their refs", worktree.RefPrefix)
		return nil, nil, exitUsage
	}
	// The change lands in the work tree apply runs in, which may be another
	// worktree of the same repository than the task started from: the
	// three-way merge takes whatever tree it finds there.
	root, err := projectkey.FindWorktreeRoot(h.dir)
	if err != nil {
		root = t.UserRoot
	}
	// A task kept by earlier tribunal versions sits on a branch: move it out of
	// refs/heads first (apply may keep it on a conflict).
	if note, err := m.Migrate(ctx, root, t); err != nil {
		c.warnf("%v", err)
	} else if note != "" {
		c.progress(note)
	}
	t.UserRoot = root
	// Apply snapshots the working tree again: the same untracked files
	// that look like secrets stay out of it.
	m.Secrets = c.secretRule(root)
	if t.State != worktree.Kept && t.PID > 0 && worktree.ProcessAlive(t.PID) {
		c.errorf("%s: task %s is still running", name, id)
		c.hint("wait for it: tribunal-session wait %s", id)
		return nil, nil, exitUsage
	}
	return m, t, 0
}

// applyCmd applies a kept task's change to the working tree as
// uncommitted changes, or changes nothing and says why.
func (c *cli) applyCmd(ctx context.Context, args []string) int {
	m, t, code := c.keptTask(ctx, "apply", args)
	if code != 0 {
		return code
	}
	res, err := m.Apply(ctx, t)
	if err != nil {
		c.errorf("apply: task %s: %v", t.ID, err)
		c.hint("nothing was changed; 'git diff %s %s' shows the change", shortID(t.Snapshot), t.Branch)
		return exitAborted
	}
	if len(res.Conflicts) > 0 {
		c.applyConflict(ctx, m, t, res.Conflicts)
		return exitNotApplied
	}
	if res.NoChange {
		fmt.Fprintf(c.stdout, "task %s: nothing to apply (your working tree already has this change, or it is empty)\n", t.ID)
	} else {
		fmt.Fprintf(c.stdout, "task %s: applied to your working tree as uncommitted changes (%d file(s)):\n", t.ID, len(res.Files))
		for _, f := range res.Files {
			fmt.Fprintf(c.stdout, "  %s %s\n", f.Status, safetext.OneLine(f.Path, 300))
		}
	}
	if err := m.Discard(context.WithoutCancel(ctx), t); err != nil {
		c.warnf("%s not removed: %v", t.Branch, err)
	}
	accepted := c.recordFate(ctx, t.ID, "applied")
	if !res.NoChange && accepted {
		// A receipt is only ever signed for a change the gate accepted:
		// after applying a rejected one the hint would lead nowhere.
		c.progressf("task %s: once you commit the change, 'tribunal-session receipt HEAD' attaches its verdict to the commit, if the gate accepted it, as a signed git note", t.ID)
	}
	return 0
}

// recordFate notes in the task's report what became of its kept change,
// and reports whether the task's gate accepted it.
func (c *cli) recordFate(ctx context.Context, id, state string) (accepted bool) {
	dir, err := os.Getwd()
	if err != nil {
		return false
	}
	h, err := c.locateDir(ctx, dir)
	if err != nil {
		return false
	}
	outcome, err := session.UpdateIsolation(h.project.TaskDir(id), state)
	if err != nil {
		c.warnf("the task's report does not say it was %s: %v", state, err)
	}
	return outcome == rules.OutcomeAccepted
}

// discardCmd drops a kept task's ref and record; the working tree is
// not touched.
func (c *cli) discardCmd(ctx context.Context, args []string) int {
	m, t, code := c.keptTask(ctx, "discard", args)
	if code != 0 {
		return code
	}
	if err := m.Discard(ctx, t); err != nil {
		c.errorf("discard: task %s: %v", t.ID, err)
		return exitAborted
	}
	fmt.Fprintf(c.stdout, "task %s: discarded %s; your working tree was not touched\n", t.ID, t.Branch)
	c.recordFate(ctx, t.ID, "discarded")
	return 0
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// secretRule is the rule for untracked files that look like secrets in the
// repository at root: the built-in patterns and those of its settings.
func (c *cli) secretRule(root string) secretfiles.Rule {
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: c.warning})
	return cfg.SecretRule()
}

// changeBounds are what a review leaves out of the change at root before
// reading it: the secret-file rule and the size limits of its settings.
func (c *cli) changeBounds(root string) (secretfiles.Rule, worktree.Limits) {
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: c.warning})
	var l worktree.Limits
	l.FileBytes, l.TaskBytes = cfg.ChangeLimits()
	return cfg.SecretRule(), l
}

// worktrees is the task-worktree manager of a project: its worktrees
// directory, and the per-user fallback that runs use when $ONLOOKER_DIR
// cannot hold them.
func (c *cli) worktrees(project store.Project) *worktree.Manager {
	m := &worktree.Manager{Git: c.git(os.Environ()), Dir: project.WorktreesDir(), PID: os.Getpid(), Now: time.Now}
	m.Fallback = worktree.FallbackDir(c.getenv("TMPDIR"), os.Getuid(), filepath.Base(project.Dir))
	return m
}
