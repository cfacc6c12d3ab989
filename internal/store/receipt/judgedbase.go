package receipt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// A receipt vouches only for what its judges saw: the change from its
// judged base commit to its judged tree. It vouches for a commit only
// when the commit's tree is the judged tree and the judged base is the
// commit the change is measured from (its first parent, or a pull
// request's merge base: the bound) or an ancestor of it whose difference
// from the bound the change does not touch. Otherwise work no judge saw
// could ride along: uncommitted files a task's snapshot took as its base
// (issue 30 item 4), or commits between the judged base and the bound.

// BaseCheck says why a receipt's judged base cannot vouch for the commit
// under check ("" when it can).
type BaseCheck func(r Receipt) string

// emptyTrees are git's empty tree in SHA-1 and SHA-256 repositories: a
// change judged from it showed the judges the whole tree.
var emptyTrees = map[string]bool{
	"4b825dc642cb6eb9a060e54bf8d69288fbee4904":                         true,
	"6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321": true,
}

// BaseCheckFor is the judged-base rule for a commit whose change is
// measured from bound ("" for a root commit: from the empty tree). known
// maps commits already listed to their trees (nil: none), which spares a
// range one git call per commit.
func (g Git) BaseCheckFor(ctx context.Context, c Commit, bound string, known map[string]string) BaseCheck {
	return func(r Receipt) string {
		why, err := g.baseProblem(ctx, r.Judged.Base, r.Judged.BaseTree, c.Tree, bound, known)
		if err != nil {
			return fmt.Sprintf("its judged base cannot be checked: %v", err)
		}
		return why
	}
}

// baseProblem applies the rule to a change judged from base (a commit;
// "" when none is recorded) whose tree is baseTree, for a commit with
// tree whose change is measured from bound.
func (g Git) baseProblem(ctx context.Context, base, baseTree, tree, bound string, known map[string]string) (string, error) {
	if base == "" {
		if emptyTrees[baseTree] {
			return "", nil // judged from nothing: the judges saw the whole tree
		}
		return "the receipt records no judged base commit (an older tribunal wrote it), so it cannot show that its judges saw this commit's change: write it again", nil
	}
	if bound == "" {
		return fmt.Sprintf("this is a root commit, whose change is its whole tree, but the judges saw only the change from %s", short(base)), nil
	}
	baseTreeNow, ok := known[base]
	if !ok {
		trees, err := g.Trees(ctx, []string{base})
		if err != nil {
			return "", err
		}
		baseTreeNow = trees[0]
	}
	switch {
	case baseTreeNow == "":
		return fmt.Sprintf("its judged base %s is not in this repository (a task's snapshot of uncommitted work, since removed, or a commit not fetched)", short(base)), nil
	case baseTreeNow != baseTree:
		return fmt.Sprintf("its judged base %s does not have the judged base tree %s", short(base), short(baseTree)), nil
	case base == bound:
		return "", nil
	}
	ok, err := g.isAncestor(ctx, base, bound)
	if err != nil || !ok {
		return fmt.Sprintf("its judged base %s is neither %s, from which this change is measured, nor an ancestor of it: what lies between (such as uncommitted work a task started from) was never shown to a judge", short(base), short(bound)), err
	}
	moved, err := g.changedPaths(ctx, base, bound)
	if err != nil {
		return "", err
	}
	changed, err := g.changedPaths(ctx, bound, tree)
	if err != nil {
		return "", err
	}
	var unseen []string
	for p := range changed {
		if moved[p] {
			unseen = append(unseen, p)
		}
	}
	if len(unseen) > 0 {
		sort.Strings(unseen)
		return fmt.Sprintf("its judged base %s is an ancestor of %s, but %s changed since it and this change differs from %s there too: the judges never saw that difference",
			short(base), short(bound), listPaths(unseen), short(bound)), nil
	}
	return "", nil
}

// isAncestor is `git merge-base --is-ancestor a b`: false (no error) when
// a is not an ancestor of b.
func (g Git) isAncestor(ctx context.Context, a, b string) (bool, error) {
	_, err := g.run(ctx, nil, "merge-base", "--is-ancestor", a, b)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	}
	return false, err
}

// MergeBase is the best common ancestor of a and b.
func (g Git) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := g.run(ctx, nil, "merge-base", "--end-of-options", a, b)
	if err != nil {
		return "", fmt.Errorf("the merge base of %s and %s: %w", short(a), short(b), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// changedPaths are the paths whose content differs between trees (or
// commits) a and b.
func (g Git) changedPaths(ctx context.Context, a, b string) (map[string]bool, error) {
	out, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", a, b)
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths[string(p)] = true
		}
	}
	return paths, nil
}

func listPaths(ps []string) string {
	if len(ps) > 3 {
		return fmt.Sprintf("%q and %d more", ps[:3], len(ps)-3)
	}
	return fmt.Sprintf("%q", ps)
}
