package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// userChanges is the user's work tree as one `git status` reports it: the
// paths whose work-tree or index state differs from HEAD (both sides of a
// rename) and the untracked, not ignored files. A warm start needs nothing
// else: the snapshot is HEAD's tree when both are empty, and otherwise
// differs from the user's index (copied) only at these paths.
type userChanges struct {
	changed   []string // the work tree differs from the index
	untracked []string
	staged    bool // the index differs from HEAD somewhere
}

// statusArgs is the one walk of the user's tree a warm start makes: what
// `ls-files --others --exclude-standard` and `add --all` would find
// (tracked changes, untracked files one by one, the standard excludes),
// written by nothing (projectkey's --no-optional-locks).
var userStatusArgs = []string{"status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"}

// userStatus reads the user's changes.
func (m *Manager) userStatus(ctx context.Context, userRoot string) (userChanges, error) {
	out, err := m.git(ctx, userRoot, userStatusArgs...)
	if err != nil {
		return userChanges{}, fmt.Errorf("read the state of %q: %w", userRoot, err)
	}
	return parseUserStatus(out)
}

// parseUserStatus reads `git status --porcelain -z` (version 1): "XY PATH"
// records, NUL-terminated.
func parseUserStatus(out []byte) (userChanges, error) {
	var c userChanges
	for len(out) > 0 {
		rec, rest, ok := bytes.Cut(out, []byte{0})
		if !ok || len(rec) < 4 || rec[2] != ' ' {
			return userChanges{}, fmt.Errorf("unexpected git status record %q", rec)
		}
		out = rest
		xy, p := string(rec[:2]), string(rec[3:])
		switch {
		case xy == "??":
			c.untracked = append(c.untracked, p)
		case xy == "!!":
		default:
			c.staged = c.staged || xy[0] != ' '
			if xy[0] == 'R' || xy[0] == 'C' {
				// --no-renames should make none; a rename's source follows,
				// gone from the index and the work tree alike.
				_, rest, ok := bytes.Cut(out, []byte{0})
				if !ok {
					return userChanges{}, fmt.Errorf("rename record %q lacks its source", rec)
				}
				out = rest
			}
			if xy[1] != ' ' {
				// The work tree differs from the index here. A path
				// changed in the index only is as the copied index has
				// it, which add --all would leave.
				c.changed = append(c.changed, p)
			}
		}
	}
	return c, nil
}

// snapshotPaths is what a warm snapshot takes from the user's tree: the
// changed paths and the untracked ones that neither look like secrets
// (those are returned as left out) nor are over the size limits (returned
// as over), less our own directory.
func (m *Manager) snapshotPaths(userRoot string, untracked, changed []string) (paths, leftOut []string, over []records.Refusal) {
	if rel, err := filepath.Rel(userRoot, m.Dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		// Our own directory is never part of a snapshot (capture's
		// exclude pathspec).
		own := filepath.ToSlash(rel) + "/"
		changed, untracked = outside(changed, own), outside(untracked, own)
	}
	add, leftOut := m.Secrets.Split(untracked, func(rel string) []byte {
		return secretfiles.Head(filepath.Join(userRoot, filepath.FromSlash(rel)))
	})
	add, over = m.Limits.BoundFiles(userRoot, add)
	return append(append([]string{}, changed...), add...), leftOut, over
}

// captureChanges is capture for a warm start with changes (paths and
// leftOut from snapshotPaths; no paths when only the index differs from
// HEAD): the user's index copied into wt's with `add --all` limited to
// paths, which gives the tree a whole-tree `add --all` would. tree ""
// (no error) means the member's index could not be kept: rebuild.
func (m *Manager) captureChanges(ctx context.Context, wt, userRoot, base string, paths, leftOut []string, over []records.Refusal) (string, []string, []records.Refusal, error) {
	idx, err := m.gitLine(ctx, wt, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", nil, nil, nil
	}
	kept := idx + ".tribunal-warm"
	if err := copyIndex(idx, kept); err != nil {
		return "", nil, nil, nil
	}
	defer os.Remove(kept)
	var tree string
	if m.addPaths(ctx, wt, userRoot, idx, paths) {
		if tree, err = m.gitLine(ctx, wt, "write-tree"); err != nil {
			return "", nil, nil, fmt.Errorf("write the snapshot tree: %w", err)
		}
	} else if tree, leftOut, over, err = m.capture(ctx, wt, userRoot, base, nil); err != nil {
		// The user's index could not serve (a split index, say): the
		// whole capture, which starts from base's tree when it must.
		return "", nil, nil, err
	}
	// The member's own index again: its stat data matches the member's
	// files, so the checkout that follows rewrites only the files that
	// differ. A member whose index cannot be put back is rebuilt ("").
	if err := copyIndex(kept, idx); err != nil {
		return "", nil, nil, nil
	}
	return tree, leftOut, over, nil
}

// snapshotRef commits tree on base as task t's snapshot and points the
// task's ref at it. It runs in the user's repository, whose objects and
// refs its worktrees share, so a warm start need not wait for the member;
// neither command touches the user's index or files.
func (m *Manager) snapshotRef(ctx context.Context, t *Task, userRoot, tree, base string) (string, error) {
	snap, err := m.commit(ctx, userRoot, tree, base, snapshotMessage(userRoot, t.ID))
	if err != nil {
		return "", err
	}
	if _, err := m.git(ctx, userRoot, "update-ref", t.Branch, snap); err != nil {
		return "", fmt.Errorf("point %s at the snapshot: %w", t.Branch, err)
	}
	return snap, nil
}

// addPaths copies the user's index into wt's (at dst) and adds paths
// (literal, from the top) from the user's tree to it; false when that
// fails.
func (m *Manager) addPaths(ctx context.Context, wt, userRoot, dst string, paths []string) bool {
	src, err := m.gitLine(ctx, userRoot, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil || copyIndex(src, dst) != nil {
		return false
	}
	if len(paths) == 0 {
		return true // staged changes only: the index is the snapshot
	}
	specs := make([]string, len(paths))
	for i, p := range paths {
		specs[i] = ":(top,literal)" + p
	}
	file := wt + ".pathspec"
	if err := os.WriteFile(file, []byte(strings.Join(specs, "\x00")), 0o600); err != nil {
		return false
	}
	defer os.Remove(file)
	_, err = m.git(ctx, wt, "--work-tree="+userRoot, "add", "--all", "--pathspec-from-file="+file, "--pathspec-file-nul")
	return err == nil
}

// outside keeps the paths not under prefix.
func outside(paths []string, prefix string) []string {
	var kept []string
	for _, p := range paths {
		if !strings.HasPrefix(p, prefix) {
			kept = append(kept, p)
		}
	}
	return kept
}
