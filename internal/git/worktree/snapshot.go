package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/gitindex"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// What a task's snapshot is made of: the user's repository as git names
// it, the base commit, the capture of the user's tree into a worktree's
// index, and the submodules a worktree holds.

// snapshotMessage is the commit message of a task's snapshot.
func snapshotMessage(userRoot, id string) string {
	return "tribunal: snapshot of " + userRoot + " for task " + id
}

// repoDirs is what one `git rev-parse` says of the user's repository:
// its common and own git directories (absolute) and HEAD's commit ("" on
// an unborn branch). A warm start asks once instead of three times.
type repoDirs struct{ common, gitDir, head string }

// readRepo asks git for the user's repoDirs.
func (m *Manager) readRepo(ctx context.Context, userRoot string) (repoDirs, error) {
	dirs := []string{"rev-parse", "--path-format=absolute", "--git-common-dir", "--absolute-git-dir"}
	out, err := m.gitLine(ctx, userRoot, append(dirs, "--verify", "--quiet", "HEAD^{commit}")...)
	if lines := strings.Split(out, "\n"); err == nil && len(lines) == 3 {
		return repoDirs{common: lines[0], gitDir: lines[1], head: lines[2]}, nil
	}
	// No commit yet (rev-parse fails after naming the directories): ask
	// for the directories alone.
	out, err = m.gitLine(ctx, userRoot, dirs...)
	if lines := strings.Split(out, "\n"); err == nil && len(lines) == 2 && lines[0] != "" && lines[1] != "" {
		return repoDirs{common: lines[0], gitDir: lines[1]}, nil
	}
	if err == nil {
		err = fmt.Errorf("unexpected answer %q", out)
	}
	return repoDirs{}, fmt.Errorf("find the git directory of %q: %w", userRoot, err)
}

// baseCommit is head (the user's HEAD commit), or, on an unborn branch
// (head ""), a root commit of the empty tree (worktree add needs a
// commit).
func (m *Manager) baseCommit(ctx context.Context, userRoot, head string) (string, error) {
	if head != "" {
		return head, nil
	}
	// mktree reads an empty stdin: it writes and prints the empty tree.
	empty, err := m.gitLine(ctx, userRoot, "mktree")
	if err != nil {
		return "", fmt.Errorf("write the empty tree: %w", err)
	}
	c, err := m.gitLine(ctx, userRoot, "commit-tree", "--no-gpg-sign", "-m", "tribunal: empty base (the repository has no commits yet)", empty)
	if err != nil {
		return "", fmt.Errorf("create an empty base commit: %w", err)
	}
	return c, nil
}

// capture records the user's work tree (tracked and untracked files, not
// ignored ones, nor untracked ones that look like secrets, nor untracked
// ones over the size limits (Limits.Bound), which it returns) in the index of worktree wt and returns its tree. The index
// starts as a copy of the user's, whose stat data lets `add -A` skip
// unchanged files; when that copy cannot be used (no index yet, a split
// index) it starts from base's tree instead. pins precede git's
// arguments (see Guard).
func (m *Manager) capture(ctx context.Context, wt, userRoot, base string, pins []string) (tree string, leftOut []string, over []records.Refusal, err error) {
	copied := false
	if src, err := m.gitLine(ctx, userRoot, "rev-parse", "--path-format=absolute", "--git-path", "index"); err == nil {
		if dst, err := m.gitLine(ctx, wt, "rev-parse", "--path-format=absolute", "--git-path", "index"); err == nil {
			copied = copyIndex(src, dst) == nil
		}
	}
	// ":/" is the whole work tree whatever the current directory; our own
	// directory is left out when it lies inside the user's tree (a
	// repository at $HOME holds $ONLOOKER_DIR).
	specs := []string{":/"}
	if rel, err := filepath.Rel(userRoot, m.Dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		specs = append(specs, ":(top,exclude)"+filepath.ToSlash(rel))
	}
	leftOut, over, err = m.untrackedOut(ctx, userRoot, specs)
	if err != nil {
		return "", nil, nil, err
	}
	args := append(append([]string{}, pins...), "--work-tree="+userRoot, "add", "--all", "--")
	if excluded := append(slices.Clone(leftOut), refusedPaths(over)...); len(excluded) > 0 {
		// Excluded by pathspec, the files are never read, so no blob of
		// theirs is written. Their list can outgrow a command line.
		for _, p := range excluded {
			specs = append(specs, ":(top,exclude,literal)"+p)
		}
		file := wt + ".pathspec"
		if err := os.WriteFile(file, []byte(strings.Join(specs, "\x00")), 0o600); err != nil {
			return "", nil, nil, fmt.Errorf("snapshot the working tree of %q: %w", userRoot, err)
		}
		defer os.Remove(file)
		args = append(append([]string{}, pins...), "--work-tree="+userRoot, "add", "--all", "--pathspec-from-file="+file, "--pathspec-file-nul")
		specs = nil
	}
	add := func() error {
		_, err := m.git(ctx, wt, append(args, specs...)...)
		return err
	}
	err = errors.New("no index")
	if copied {
		err = add()
	}
	if err != nil {
		if _, rerr := m.git(ctx, wt, append(append([]string{}, pins...), "read-tree", base)...); rerr != nil {
			return "", nil, nil, fmt.Errorf("prepare the snapshot index: %w", rerr)
		}
		if err = add(); err != nil {
			return "", nil, nil, fmt.Errorf("snapshot the working tree of %q: %w", userRoot, err)
		}
	}
	tree, err = m.gitLine(ctx, wt, append(append([]string{}, pins...), "write-tree")...)
	if err != nil {
		return "", nil, nil, fmt.Errorf("write the snapshot tree: %w", err)
	}
	return tree, leftOut, over, nil
}

// untrackedOut lists the user's untracked, not ignored files within specs
// (as the user's own index and excludes define them; ls-files writes
// nothing) and returns those that look like secrets, and of the others
// those over the size limits (sized by lstat, never read).
func (m *Manager) untrackedOut(ctx context.Context, userRoot string, specs []string) ([]string, []records.Refusal, error) {
	out, err := m.git(ctx, userRoot, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, specs...)...)
	if err != nil {
		return nil, nil, fmt.Errorf("list the untracked files of %q: %w", userRoot, err)
	}
	var untracked []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			untracked = append(untracked, p)
		}
	}
	keep, leftOut := m.Secrets.Split(untracked, func(rel string) []byte {
		return secretfiles.Head(filepath.Join(userRoot, filepath.FromSlash(rel)))
	})
	_, over := m.Limits.BoundFiles(userRoot, keep)
	return leftOut, over, nil
}

// refusedPaths are the paths of refused.
func refusedPaths(refused []records.Refusal) []string {
	paths := make([]string, len(refused))
	for i, r := range refused {
		paths[i] = r.Path
	}
	return paths
}

func (m *Manager) commit(ctx context.Context, dir, tree, parent, msg string) (string, error) {
	c, err := m.gitLine(ctx, dir, "commit-tree", "--no-gpg-sign", "-p", parent, "-m", msg, tree)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return c, nil
}

// submodules lists the gitlinks of the task worktree's index: read in
// process when the worktree's git directory is known (git's start and its
// listing of every entry cost 25–40 ms on a 50,000-file repository, on the
// path of starting a task), else, or when gitindex refuses the index (a
// version, flag or extension it does not read), from git.
func (m *Manager) submodules(ctx context.Context, wt, gitDir string) ([]string, error) {
	// Generous: above it the index is not read from its header on, and no
	// repository a task runs in comes near it; gitindex itself refuses a
	// count its data cannot hold.
	const maxIndexEntries = 10_000_000
	if gitDir != "" {
		if links, err := gitindex.ReadGitlinks(filepath.Join(gitDir, "index"), maxIndexEntries); err == nil {
			return links, nil
		}
	}
	out, err := m.git(ctx, wt, "ls-files", "--stage", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, rec := range strings.Split(string(out), "\x00") {
		if strings.HasPrefix(rec, "160000 ") {
			if _, p, ok := strings.Cut(rec, "\t"); ok {
				paths = append(paths, p)
			}
		}
	}
	return paths, nil
}
