package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Checkout makes a worktree holding the state a review judges: commit
// checked out (detached; "" is the user's HEAD, or an empty root commit
// before the first), with patch (a `git diff --binary` against commit)
// applied on top when not empty. It is recorded like a task's worktree,
// so Cleanup removes it after a crash; Finish(ctx, t, false) removes it.
// Nothing of the user's — index, working tree, HEAD, branches — is
// touched, and no ref is made.
func (m *Manager) Checkout(ctx context.Context, userRoot, id, commit string, patch []byte) (*Task, error) {
	t, err := m.claimRecord(userRoot, id)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Task, error) {
		m.remove(context.WithoutCancel(ctx), t, false)
		return nil, err
	}
	if commit == "" {
		repo, err := m.readRepo(ctx, userRoot)
		if err != nil {
			return fail(err)
		}
		if commit, err = m.baseCommit(ctx, userRoot, repo.head); err != nil {
			return fail(err)
		}
	}
	t.Base, t.Snapshot, t.Head = commit, commit, commit
	if _, err := m.worktreeGit(ctx, userRoot, "add", "--quiet", "--detach", t.Path, commit); err != nil {
		return fail(fmt.Errorf("check out %s for the judges: %w", short(commit), err))
	}
	if len(patch) > 0 {
		file := filepath.Join(t.dir, t.ID+".patch")
		if err := os.WriteFile(file, patch, 0o600); err != nil {
			return fail(fmt.Errorf("write the change for the judges: %w", err))
		}
		_, err := m.git(ctx, t.Path, "apply", "--whitespace=nowarn", file)
		os.Remove(file)
		if err != nil {
			return fail(fmt.Errorf("the change does not apply to %s: %w", short(commit), err))
		}
	}
	t.State = Running
	if err := m.save(t); err != nil {
		return fail(fmt.Errorf("record the review's worktree: %w", err))
	}
	return t, nil
}
