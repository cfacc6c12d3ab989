package worktree

import (
	"context"
	"fmt"
	"strings"
)

// A task's commits are held by the ref RefPrefix+<id>, outside refs/heads:
// a branch would be listed by `git branch`, checked out by mistake, and
// published by `git push --all` with whatever the snapshot holds. Records
// of earlier tribunal versions name a branch LegacyBranchPrefix+<id> instead;
// every operation accepts both, and Migrate moves the old kind.

// ref is the full name of the task's ref.
func (t *Task) ref() string {
	if strings.HasPrefix(t.Branch, "refs/") {
		return t.Branch
	}
	return "refs/heads/" + t.Branch
}

// Legacy reports whether t's change is still on a branch of an earlier
// tribunal version (refs/heads/tribunal/<id>).
func (t *Task) Legacy() bool { return t.Branch == LegacyBranchPrefix+t.ID }

// validRef reports whether a record's ref name is one tribunal gave task
// id: a damaged record must not make discard delete another ref.
func validRef(branch, id string) bool {
	return branch == RefPrefix+id || branch == LegacyBranchPrefix+id
}

// Migrate moves a kept task's legacy branch refs/heads/tribunal/<id> to
// RefPrefix+id, running git in dir (any work tree of the repository), and
// records the move. It returns a sentence saying what it did, "" when t
// has nothing to move. A branch checked out in some worktree stays a
// branch (deleting it would leave that worktree on an unborn branch).
func (m *Manager) Migrate(ctx context.Context, dir string, t *Task) (string, error) {
	if !t.Legacy() {
		return "", nil
	}
	old, to := "refs/heads/"+t.Branch, RefPrefix+t.ID
	if list, err := m.worktreeGit(ctx, dir, "list", "--porcelain"); err == nil {
		for _, l := range strings.Split(string(list), "\n") {
			if l == "branch "+old {
				return fmt.Sprintf("task %s stays on branch %s, which is checked out in a worktree; it moves to %s once it is not", t.ID, t.Branch, to), nil
			}
		}
	}
	tip, err := m.gitLine(ctx, dir, "rev-parse", "--verify", "--quiet", old)
	if err != nil || tip == "" {
		// The branch is gone (deleted by hand); the record follows the
		// current naming, and apply says the change no longer exists.
		t.Branch = to
		return "", m.save(t)
	}
	// "" as the old value: the new ref must not exist yet.
	if _, err := m.git(ctx, dir, "update-ref", "-m", "move the task ref out of refs/heads", to, tip, ""); err != nil {
		if cur, cerr := m.gitLine(ctx, dir, "rev-parse", "--verify", "--quiet", to); cerr != nil || cur != tip {
			return "", fmt.Errorf("move %s to %s: %w", old, to, err)
		}
	}
	if _, err := m.git(ctx, dir, "update-ref", "-d", old, tip); err != nil {
		return "", fmt.Errorf("delete %s after copying it to %s: %w", old, to, err)
	}
	from := t.Branch
	t.Branch = to
	if err := m.save(t); err != nil {
		return "", fmt.Errorf("record the move of %s to %s: %w", old, to, err)
	}
	return fmt.Sprintf("moved kept task %s from branch %s to %s (git branch and git push --all no longer see it)", t.ID, from, to), nil
}

// MigrateKept migrates every kept task of the project (Migrate), running
// git in userRoot, and returns one sentence per task moved or not.
func (m *Manager) MigrateKept(ctx context.Context, userRoot string) []string {
	var notes []string
	for _, t := range m.KeptTasks() {
		if !t.Legacy() {
			continue
		}
		note, err := m.Migrate(ctx, userRoot, &t)
		if err != nil {
			note = fmt.Sprintf("kept task %s stays on branch %s: %v", t.ID, t.Branch, err)
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	return notes
}
