package worktree

import (
	"context"
	"fmt"
	"strings"
)

// Overlap says where the files that stopped an apply were changed since
// the task's snapshot: in commits made on top of the task's base, in the
// user's uncommitted edits, or both — so that apply can name the cause
// instead of blaming "your edits" on a clean tree.
type Overlap struct {
	// Commits are the commits since the task's base that touch a
	// conflicting file, newest first: "<short hash> <subject>".
	Commits []string
	// Edited are the conflicting files the user has changed and not
	// committed (tracked or untracked).
	Edited []string
}

// maxOverlapCommits bounds the commits Overlap lists: enough to recognise
// the work, not a history dump.
const maxOverlapCommits = 10

// Overlap finds, for the files of a conflicting apply, the commits since
// the task's base and the uncommitted edits that touch them. Read-only.
func (m *Manager) Overlap(ctx context.Context, t *Task, files []string) (Overlap, error) {
	var o Overlap
	if len(files) == 0 {
		return o, nil
	}
	paths := append([]string{"--"}, files...)
	args := append([]string{"log", "--no-color", "--no-ext-diff", "--no-textconv", fmt.Sprintf("--max-count=%d", maxOverlapCommits), "--format=%h %s", t.Base + "..HEAD"}, paths...)
	out, err := m.git(ctx, t.UserRoot, args...)
	if err != nil {
		return o, fmt.Errorf("list the commits since the task's start: %w", err)
	}
	o.Commits = lines(string(out))
	out, err = m.git(ctx, t.UserRoot, append([]string{"diff-index", "--name-only", "--no-ext-diff", "--no-textconv", "HEAD"}, paths...)...)
	if err != nil {
		return o, fmt.Errorf("list your uncommitted edits: %w", err)
	}
	o.Edited = lines(string(out))
	out, err = m.git(ctx, t.UserRoot, append([]string{"ls-files", "--others", "--exclude-standard"}, paths...)...)
	if err != nil {
		return o, fmt.Errorf("list your untracked files: %w", err)
	}
	for _, f := range lines(string(out)) {
		o.Edited = appendUnique(o.Edited, f)
	}
	return o, nil
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
