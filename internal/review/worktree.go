package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
)

// maxUntracked bounds how many untracked files a work-tree review reads:
// past it the change is an unreviewable dump (a build directory nobody
// ignored), said so rather than read.
const maxUntracked = 500

// resolveWorkTree is the uncommitted change — what a session has done so
// far: tracked files against HEAD (staged or not) and every untracked
// file git does not ignore, as new files. It reads the work tree with
// plumbing only, so the user's index is never rewritten. Untracked files
// that look like secrets (in.Secrets) and files over in.Limits are left
// out before anything is diffed, and named in Omitted.
func resolveWorkTree(ctx context.Context, git projectkey.GitRunner, root string, in Input) (*Change, error) {
	base, _ := line(ctx, git, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if base == "" {
		return nil, &InputError{Err: errors.New("--worktree: the repository has no commit to compare the work tree with"),
			Hint: "commit once, or review the staged changes with --staged"}
	}
	c := &Change{Kind: KindWorkTree, Base: base, limits: in.Limits}
	names, err := untrackedNames(ctx, git, root)
	if err != nil {
		return nil, err
	}
	names, secrets := in.Secrets.Split(names, func(rel string) []byte {
		return secretfiles.Head(filepath.Join(root, filepath.FromSlash(rel)))
	})
	c.Omitted = secretNote(secrets)
	excludes, err := c.workTreeBound(ctx, git, root, names)
	if err != nil {
		return nil, err
	}
	args := append(append([]string{"diff-index"}, diffArgs...), base, "--")
	tracked, err := git(ctx, root, append(args, excludes...)...)
	if err != nil {
		return nil, fmt.Errorf("diff the work tree: %w", err)
	}
	left := map[string]bool{}
	for _, e := range excludes {
		left[strings.TrimPrefix(e, excludeSpec(""))] = true
	}
	untracked, err := untrackedPatch(ctx, git, root, slices.DeleteFunc(names, func(n string) bool { return left[n] }))
	if err != nil {
		return nil, err
	}
	c.Patch = append(dropHeaderOnly(tracked), untracked...)
	c.HeadKey = patchKey(c.Patch)
	if c.BaseTree, err = line(ctx, git, root, "rev-parse", base+"^{tree}"); err != nil {
		return nil, fmt.Errorf("tree of HEAD: %w", err)
	}
	c.Title = KindWorkTree
	return c, c.parse("the work tree")
}

// workTreeBound sizes the tracked files that differ from base (the larger
// of HEAD's blob and the work tree's file) and the untracked ones, by
// lstat and tree entries alone, and returns the pathspecs that keep those
// over c.limits out, with their notes in c.Omitted.
func (c *Change) workTreeBound(ctx context.Context, git projectkey.GitRunner, root string, untracked []string) ([]string, error) {
	raw, err := git(ctx, root, "diff-index", "-z", "--raw", "--no-renames", "--no-ext-diff", "--no-textconv", c.Base, "--")
	if err != nil {
		return nil, fmt.Errorf("list the work tree's changed files: %w", err)
	}
	entries, err := parseRaw(raw)
	if err != nil {
		return nil, err
	}
	var old []string
	for _, e := range entries {
		if e.oldMode != "000000" {
			old = append(old, e.path)
		}
	}
	olds := map[string]int64{}
	if len(old) > 0 {
		if olds, err = blobSizes(ctx, git, root, c.Base, old); err != nil {
			return nil, err
		}
	}
	var files []worktree.Sized
	for _, e := range entries {
		files = append(files, worktree.Sized{Path: e.path, Size: max(olds[e.path], fileSize(root, e.path))})
	}
	for _, n := range untracked {
		files = append(files, worktree.Sized{Path: n, Size: fileSize(root, n)})
	}
	return c.leaveOut(files), nil
}

// fileSize is the size of the regular file at rel under root, 0 for
// anything else (a link, a directory, a path gone): nothing is read.
func fileSize(root, rel string) int64 {
	if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && st.Mode().IsRegular() {
		return st.Size()
	}
	return 0
}

// untrackedNames lists the untracked, not ignored files, at most
// maxUntracked of them.
func untrackedNames(ctx context.Context, git projectkey.GitRunner, root string) ([]string, error) {
	out, err := git(ctx, root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("list the untracked files: %w", err)
	}
	names := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(names) == 1 && names[0] == "" {
		return nil, nil
	}
	if len(names) > maxUntracked {
		return nil, &InputError{Err: fmt.Errorf("--worktree: %d untracked files, more than the %d a review reads", len(names), maxUntracked),
			Hint: "add the generated ones to .gitignore, or stage the change and review it with --staged"}
	}
	return names, nil
}

// untrackedPatch is each of names, untracked files, as a new-file patch.
// `git diff --no-index` exits 1 when the files differ, which they always
// do here: its output is the answer, its error only when it printed none.
func untrackedPatch(ctx context.Context, git projectkey.GitRunner, root string, names []string) ([]byte, error) {
	var patch []byte
	for _, name := range names {
		p, err := git(ctx, root, append(append([]string{"diff", "--no-index"}, diffArgs...), "--", "/dev/null", name)...)
		if err != nil && len(p) == 0 {
			return nil, fmt.Errorf("diff the untracked file %s: %w", name, err)
		}
		patch = append(patch, p...)
	}
	return patch, nil
}

// dropHeaderOnly removes the entries of a diff-index patch that carry a
// header and nothing else: a file whose stat changed but whose content
// did not (the plumbing does not refresh the index), which `git apply`
// would refuse.
func dropHeaderOnly(patch []byte) []byte {
	var out []byte
	for _, entry := range splitEntries(patch) {
		if bytes.Contains(entry, []byte("\n@@ ")) || bytes.Contains(entry, []byte("\nGIT binary patch")) ||
			bytes.Contains(entry, []byte("\nrename from ")) || bytes.Contains(entry, []byte("\nold mode ")) ||
			bytes.Contains(entry, []byte("\nnew file mode ")) || bytes.Contains(entry, []byte("\ndeleted file mode ")) {
			out = append(out, entry...)
		}
	}
	return out
}

// splitEntries cuts a git patch at each "diff --git " line.
func splitEntries(patch []byte) [][]byte {
	var entries [][]byte
	for len(patch) > 0 {
		next := bytes.Index(patch[1:], []byte("\ndiff --git "))
		if next < 0 {
			entries = append(entries, patch)
			break
		}
		entries = append(entries, patch[:next+2])
		patch = patch[next+2:]
	}
	return entries
}
