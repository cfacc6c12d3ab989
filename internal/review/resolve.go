// Package review resolves what `tribunal-session review` judges (a
// merge-base range, the index or a unified diff), keys its verdict cache,
// fingerprints its findings, reads dismissals and decides its exit code.
package review

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
)

// Kinds of change a review judges.
const (
	KindRange  = "range"  // --base [--head]: the merge-base diff
	KindStaged = "staged" // --staged: the index against HEAD
	KindDiff   = "diff"   // --diff: a unified diff on top of a base
	// KindWorkTree is --worktree: the work tree against HEAD, untracked
	// files included.
	KindWorkTree = "worktree"
)

// emptyTree is git's empty tree: the base of a repository with no commits.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Input is what the user named.
type Input struct {
	Base, Head string // --base, --head ("" → HEAD when Base is set)
	Staged     bool
	// WorkTree names the uncommitted change: tracked files against HEAD
	// and the untracked files git does not ignore.
	WorkTree bool
	// Diff is the unified diff read from --diff (nil when not given);
	// DiffName names its source for messages ("-" for stdin).
	Diff     []byte
	DiffName string
	// Secrets is the rule for untracked files that look like secrets
	// (settings' secret_files added): a work-tree review leaves them out.
	Secrets secretfiles.Rule
	// Limits bound one file and the whole change (session.max_file_mb,
	// max_change_mb), applied from sizes before any content is read.
	Limits worktree.Limits
}

// Change is the resolved change: what the judges see and what keys it.
type Change struct {
	Kind string
	// Base is the commit the change applies to (the merge base of a
	// range); Head the head commit of a range, "" otherwise.
	Base, Head string
	// BaseTree is Base's tree; HeadKey the head's tree for a range, or
	// "patch:<sha256>" of the patch when the head state is not a commit.
	BaseTree, HeadKey string
	// Patch is the change as git prints it (--binary, a/ b/ prefixes), to
	// apply on Base for the judges' working directory.
	Patch []byte
	Files []unidiff.File
	// Omitted names, in words, what was left out before the patch was
	// read: untracked files that look like secrets, files over the size
	// limits. The judges are never shown them.
	Omitted []string
	// Title names the change for people: "main...feature", "staged",
	// "worktree", or the diff's file name ("standard input" for -). It
	// titles the review in log, show, view and the page, in place of
	// the judges' task text.
	Title  string
	limits worktree.Limits
	// what names a range for "nothing to review"; pending is set while
	// a range's patch is not read yet (Identify), until Load.
	what    string
	pending bool
}

// InputError is bad input: what failed and what to do instead.
type InputError struct {
	Err  error
	Hint string
}

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// NothingError says there is nothing to review (an empty change, binary
// files only): not a failure, and never a verdict.
type NothingError struct{ Why string }

func (e *NothingError) Error() string { return "nothing to review: " + e.Why }

// diffArgs are the options every patch is printed with: plumbing (no
// user diff configuration); no external diff and no textconv program, so
// git runs nothing that the repository's config or the change's
// .gitattributes name (`diff --no-index` is porcelain and would); renames
// found, binary patches that apply, fixed prefixes that unidiff.Parse
// reads.
var diffArgs = []string{"-p", "-M", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/"}

// Resolve turns in into a Change, reading the repository at root with
// git. Errors are *InputError or *NothingError, or wrap git's failure.
func Resolve(ctx context.Context, git projectkey.GitRunner, root string, in Input) (*Change, error) {
	c, err := Identify(ctx, git, root, in)
	if err != nil {
		return nil, err
	}
	return c, c.Load(ctx, git, root)
}

// Identify is Resolve without reading a range's patch: the commits and
// trees that key the verdict cache (CacheKey), which is all a review
// whose verdict is cached needs. Load reads the rest.
func Identify(ctx context.Context, git projectkey.GitRunner, root string, in Input) (*Change, error) {
	n := 0
	for _, set := range []bool{in.Base != "" || in.Head != "", in.Staged, in.Diff != nil, in.WorkTree} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, &InputError{Err: errors.New("nothing named to review"), Hint: "pass --base REF [--head REF], --staged, --worktree, or --diff FILE|-"}
	case n > 1 && !(in.Diff != nil && in.Head == "" && !in.Staged && !in.WorkTree):
		return nil, &InputError{Err: errors.New("--base/--head, --staged, --worktree and --diff name different changes; pass one of them"),
			Hint: "--diff may take --base REF: the commit the diff applies to"}
	case in.Diff != nil:
		return resolveDiff(ctx, git, root, in)
	case in.Staged:
		return resolveStaged(ctx, git, root)
	case in.WorkTree:
		return resolveWorkTree(ctx, git, root, in)
	}
	return resolveRange(ctx, git, root, in)
}

// resolveRange identifies the merge-base diff of base and head, as a pull
// request shows it. One git child on the way that succeeds (the review's
// fixed cost is mostly process starts): one rev-parse names the commits,
// the head's tree, the checked-out branch (the title's head when --head
// is not given) and, through the symmetric range base...head, the merge
// base (its first "^" line, the one `git merge-base` prints); the merge
// base's tree is read from its commit object (gitstate.CommitTree), with
// a second child only when that object is not readable so. The patch is
// Load's, so that a cached verdict costs no diff. A ref that does not
// resolve is diagnosed after.
func resolveRange(ctx context.Context, git projectkey.GitRunner, root string, in Input) (*Change, error) {
	if in.Base == "" {
		return nil, &InputError{Err: errors.New("--head needs --base"), Hint: "pass --base REF: the branch the change is to be merged into"}
	}
	head := in.Head
	if head == "" {
		head = "HEAD"
	}
	for _, ref := range []string{in.Base, head} {
		if strings.HasPrefix(ref, "-") {
			return nil, &InputError{Err: fmt.Errorf("%q is not a ref", ref), Hint: "name a branch, tag or commit"}
		}
	}
	args := []string{"rev-parse", "--is-shallow-repository", in.Base + "^{commit}", head + "^{commit}", head + "^{tree}",
		in.Base + "^{commit}..." + head + "^{commit}"}
	if in.Head == "" {
		// The checked-out branch names the head in the title, shortened
		// as `git symbolic-ref --short` does (loose: "HEAD" when
		// detached); last, so that no other line is abbreviated.
		args = append(args, "--abbrev-ref=loose", "HEAD")
	}
	out, err := line(ctx, git, root, args...)
	ids := strings.Fields(out)
	if err != nil || len(ids) < 4+len(args)-6 {
		return nil, badRefs(ctx, git, root, in.Base, head)
	}
	headTitle := in.Head
	if in.Head == "" {
		headTitle, ids = ids[len(ids)-1], ids[:len(ids)-1]
	}
	shallow, baseC, headC := ids[0] == "true", ids[1], ids[2]
	c := &Change{Kind: KindRange, Head: headC, HeadKey: ids[3], limits: in.Limits}
	mb, known := symmetricBase(ids[4:], baseC, headC)
	if !known {
		mb, _ = line(ctx, git, root, "merge-base", baseC, headC)
	}
	if mb == "" {
		if shallow {
			return nil, &InputError{Err: fmt.Errorf("no merge base of %s and %s in this shallow clone: the history between them was not fetched", in.Base, head),
				Hint: "fetch more history: `git fetch --deepen=200 origin` (or `git fetch --unshallow`), or check out with `fetch-depth: 0` (GitHub Actions) / `GIT_DEPTH: 0` (GitLab CI)"}
		}
		return nil, &InputError{Err: fmt.Errorf("%s and %s have no common history", in.Base, head), Hint: "pass a --base that the head branch was started from"}
	}
	c.Base = mb
	if c.BaseTree, err = treeOf(ctx, git, root, mb); err != nil {
		return nil, err
	}
	c.what, c.pending = fmt.Sprintf("%s...%s", in.Base, head), true
	c.Title = fmt.Sprintf("%s...%s", in.Base, headTitle)
	if c.BaseTree == c.HeadKey {
		// Same trees, empty diff: said before anything is set up, as
		// Load would say it.
		return nil, &NothingError{Why: noFile(c.what)}
	}
	return c, nil
}

// Load reads what Identify left out (a range's patch), once; its errors
// are Resolve's: a *NothingError when the range changes nothing a judge
// can read.
func (c *Change) Load(ctx context.Context, git projectkey.GitRunner, root string) error {
	if !c.pending {
		return nil
	}
	// Sized first: a file over the limits is kept out of the patch by
	// pathspec, so git never prints it and nothing here holds it.
	excludes, err := c.rangeBound(ctx, git, root)
	if err != nil {
		return err
	}
	args := append(append([]string{"diff-tree", "-r"}, diffArgs...), c.Base, c.Head)
	if len(excludes) > 0 {
		args = append(append(args, "--"), excludes...)
	}
	patch, err := git(ctx, root, args...)
	if err != nil {
		return fmt.Errorf("diff %s..%s: %w", c.Base, c.Head, err)
	}
	c.Patch, c.pending = patch, false
	return c.parse(c.what)
}

// symmetricBase reads rev-parse's expansion of base...head: head, base,
// then "^" and each merge base, the first being the one `git merge-base`
// prints; no "^" line means no common history (mb ""). known is false
// when the lines are not that shape, and git merge-base is asked.
func symmetricBase(lines []string, base, head string) (mb string, known bool) {
	if len(lines) < 2 || lines[0] != head || lines[1] != base {
		return "", false
	}
	if len(lines) == 2 {
		return "", true
	}
	if mb, ok := strings.CutPrefix(lines[2], "^"); ok && mb != "" {
		return mb, true
	}
	return "", false
}

// treeOf is commit's tree: read from the object store when it can be
// (no process), else from git.
func treeOf(ctx context.Context, git projectkey.GitRunner, root, commit string) (string, error) {
	if common, err := projectkey.CommonDir(root); err == nil {
		if tree, ok := gitstate.CommitTree(common, commit); ok {
			return tree, nil
		}
	}
	tree, err := line(ctx, git, root, "rev-parse", commit+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("tree of %s: %w", commit, err)
	}
	return tree, nil
}

// badRefs says which of base and head does not resolve, and what to do.
func badRefs(ctx context.Context, git projectkey.GitRunner, root, base, head string) error {
	shallow := isShallow(ctx, git, root)
	if _, err := commitOf(ctx, git, root, base, "--base", shallow); err != nil {
		return err
	}
	if _, err := commitOf(ctx, git, root, head, "--head", shallow); err != nil {
		return err
	}
	return &InputError{Err: fmt.Errorf("cannot resolve %s and %s", base, head), Hint: "name a branch, tag or commit of this repository"}
}

// resolveStaged is the index against HEAD (the empty tree before the
// first commit): what `git commit` would record.
func resolveStaged(ctx context.Context, git projectkey.GitRunner, root string) (*Change, error) {
	base, _ := line(ctx, git, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	from := base
	if base == "" {
		from = emptyTree
	}
	patch, err := git(ctx, root, append(append([]string{"diff-index", "--cached"}, diffArgs...), from)...)
	if err != nil {
		return nil, fmt.Errorf("diff the index: %w", err)
	}
	c := &Change{Kind: KindStaged, Base: base, BaseTree: emptyTree, Patch: patch, HeadKey: patchKey(patch)}
	if base != "" {
		if c.BaseTree, err = line(ctx, git, root, "rev-parse", base+"^{tree}"); err != nil {
			return nil, fmt.Errorf("tree of HEAD: %w", err)
		}
	}
	c.Title = KindStaged
	return c, c.parse("the staged changes")
}

// resolveDiff is a unified diff on top of --base (HEAD when not given).
func resolveDiff(ctx context.Context, git projectkey.GitRunner, root string, in Input) (*Change, error) {
	name := in.DiffName
	if name == "-" {
		name = "standard input"
	}
	if len(bytes.TrimSpace(in.Diff)) == 0 {
		return nil, &NothingError{Why: "the diff from " + name + " is empty"}
	}
	files := unidiff.Parse(in.Diff)
	if len(files) == 0 {
		return nil, &InputError{Err: fmt.Errorf("the diff from %s does not parse: no \"diff --git\" header", name),
			Hint: "pass a diff as git prints it (`git diff`, `git format-patch`, a pull request's .diff)"}
	}
	base := in.Base
	if base == "" {
		base = "HEAD"
	}
	baseC, err := commitOf(ctx, git, root, base, "--base", isShallow(ctx, git, root))
	if err != nil {
		return nil, err
	}
	c := &Change{Kind: KindDiff, Base: baseC, Patch: in.Diff, HeadKey: patchKey(in.Diff)}
	if c.BaseTree, err = line(ctx, git, root, "rev-parse", baseC+"^{tree}"); err != nil {
		return nil, fmt.Errorf("tree of %s: %w", base, err)
	}
	c.Title = name
	return c, c.parse("the diff from " + name)
}

// parse fills Files and refuses a change with nothing a judge can read.
// what names the change ("main...feature", "the staged changes", "the
// work tree", "the diff from x.patch"); the sentences put it after "in"
// so that they read right whether it is singular or plural.
func (c *Change) parse(what string) error {
	c.Files = unidiff.Parse(c.Patch)
	if len(c.Files) == 0 && len(c.Omitted) > 0 {
		return &NothingError{Why: "in " + what + ", every changed file was left out of the review: " + strings.Join(c.Omitted, "; ")}
	}
	if len(c.Files) == 0 {
		return &NothingError{Why: noFile(what)}
	}
	for _, f := range c.Files {
		if !f.Binary {
			return nil
		}
	}
	return &NothingError{Why: fmt.Sprintf("in %s, only binary files changed (%d), which the judges cannot read", what, len(c.Files))}
}

func noFile(what string) string { return "no file changed in " + what }

// commitOf resolves ref to a commit id, or says why it cannot.
func commitOf(ctx context.Context, git projectkey.GitRunner, root, ref, flag string, shallow bool) (string, error) {
	if strings.HasPrefix(ref, "-") {
		return "", &InputError{Err: fmt.Errorf("%s %q is not a ref", flag, ref), Hint: "name a branch, tag or commit"}
	}
	c, err := line(ctx, git, root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err == nil && c != "" {
		return c, nil
	}
	hint := "name a branch, tag or commit of this repository (`git branch -a` lists them)"
	if shallow {
		hint = fmt.Sprintf("this is a shallow clone: fetch it first (`git fetch --depth=200 origin %s`), or check out with `fetch-depth: 0`", strings.TrimPrefix(ref, "origin/"))
	}
	return "", &InputError{Err: fmt.Errorf("%s %q: unknown revision", flag, ref), Hint: hint}
}

func isShallow(ctx context.Context, git projectkey.GitRunner, root string) bool {
	s, err := line(ctx, git, root, "rev-parse", "--is-shallow-repository")
	return err == nil && s == "true"
}

func line(ctx context.Context, git projectkey.GitRunner, root string, args ...string) (string, error) {
	out, err := git(ctx, root, args...)
	return strings.TrimSpace(string(out)), err
}

// patchKey names a head state that is not a commit by its patch.
func patchKey(patch []byte) string {
	sum := sha256.Sum256(patch)
	return "patch:" + hex.EncodeToString(sum[:])
}
