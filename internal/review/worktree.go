package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/projectkey"
)

// maxUntracked bounds how many untracked files a work-tree review reads:
// past it the change is an unreviewable dump (a build directory nobody
// ignored), said so rather than read.
const maxUntracked = 500

// resolveWorkTree is the uncommitted change — what a session has done so
// far: tracked files against HEAD (staged or not) and every untracked
// file git does not ignore, as new files. It reads the work tree with
// plumbing only, so the user's index is never rewritten.
func resolveWorkTree(ctx context.Context, git projectkey.GitRunner, root string) (*Change, error) {
	base, _ := line(ctx, git, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if base == "" {
		return nil, &InputError{Err: errors.New("--worktree: the repository has no commit to compare the work tree with"),
			Hint: "commit once, or review the staged changes with --staged"}
	}
	tracked, err := git(ctx, root, append(append([]string{"diff-index"}, diffArgs...), base, "--")...)
	if err != nil {
		return nil, fmt.Errorf("diff the work tree: %w", err)
	}
	untracked, err := untrackedPatch(ctx, git, root)
	if err != nil {
		return nil, err
	}
	patch := append(dropHeaderOnly(tracked), untracked...)
	c := &Change{Kind: KindWorkTree, Base: base, Patch: patch, HeadKey: patchKey(patch)}
	if c.BaseTree, err = line(ctx, git, root, "rev-parse", base+"^{tree}"); err != nil {
		return nil, fmt.Errorf("tree of HEAD: %w", err)
	}
	return c, c.parse("the work tree")
}

// untrackedPatch is every untracked, not ignored file as a new-file patch.
// `git diff --no-index` exits 1 when the files differ, which they always
// do here: its output is the answer, its error only when it printed none.
func untrackedPatch(ctx context.Context, git projectkey.GitRunner, root string) ([]byte, error) {
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
