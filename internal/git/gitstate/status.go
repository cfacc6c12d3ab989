// Package gitstate reads a work tree's change state through one
// `git status` call and derives from it, without ever writing to .git, the
// Stop hook's tree fingerprint, the diff stat and the unified diff a judge
// is shown (spec §8.3, spec §A.16, spec §A.19; ADR-009).
package gitstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// InitialHead is State.Head on an unborn branch (a repository with no
// commits yet), exactly as `git status --porcelain=v2 --branch` prints it.
const InitialHead = "(initial)"

// statusArgs is the single git call behind Status.
//
//   - --porcelain=v2 -z: stable, locale-free records with raw path bytes, so
//     spaces, newlines and non-ASCII names survive.
//   - --branch: the `# branch.oid` header gives HEAD in the same process.
//   - --no-ahead-behind: --branch would otherwise count commits against the
//     upstream, which can walk a long history for nothing we use.
//   - --untracked-files=all: new files are listed one by one (not as their
//     directory) so the fingerprint can hash each; ignored paths are neither
//     walked nor listed because --ignored is not passed.
//   - Submodules follow the repository's own ignore settings (default: a
//     submodule with new commits or modified content counts as changed).
var statusArgs = []string{
	"status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=all",
}

// State is a work tree's change state.
type State struct {
	// Head is the commit id HEAD points at, or InitialHead.
	Head string
	// Branch is the checked-out branch name, or "(detached)".
	Branch string
	// Changed lists tracked paths with staged or unstaged changes, including
	// unmerged paths, sorted by Path.
	Changed []Change
	// Untracked lists untracked, non-ignored paths relative to the root,
	// slash-separated and sorted. A nested repository appears as "dir/".
	Untracked []string
}

// Change is one tracked path with a staged or unstaged change.
type Change struct {
	// XY is git's two-letter code: staged then unstaged status, "." for no
	// change on that side (for example ".M", "A.", "R.", "UU").
	XY string
	// Path is the path relative to the root, slash-separated.
	Path string
	// OrigPath is the source of a rename or copy, else "".
	OrigPath string
	// Detail is the rest of git's record between XY and the path: the
	// submodule state, the HEAD, index and work-tree modes, the HEAD and
	// index object ids (all stages' for an unmerged path) and a rename's
	// score. It pins the staged side exactly, for the fingerprint.
	Detail string
}

// Dirty reports whether anything differs from HEAD: a tracked change or an
// untracked, non-ignored file (spec §8.3 row 6, spec §A.19).
func (s State) Dirty() bool {
	return len(s.Changed) > 0 || len(s.Untracked) > 0
}

// Status runs `git status` once at root, the work tree's top level, and
// parses its porcelain v2 output.
func Status(ctx context.Context, git projectkey.GitRunner, root string) (State, error) {
	out, err := git(ctx, root, statusArgs...)
	if err != nil {
		return State{}, fmt.Errorf("status of %q: %w", root, err)
	}
	st, err := parseStatus(out)
	if err != nil {
		return State{}, fmt.Errorf("status of %q: %w", root, err)
	}
	return st, nil
}

// errMalformed marks porcelain output this parser does not understand.
var errMalformed = errors.New("malformed git status output")

// parseStatus decodes `git status --porcelain=v2 -z --branch` output. Each
// record ends in NUL; a rename or copy record (`2`) is followed by one more
// NUL-terminated field, the original path. Paths are the last field of their
// record, so splitting on a fixed field count keeps spaces inside them.
func parseStatus(out []byte) (State, error) {
	var st State
	haveHead := false
	for len(out) > 0 {
		rec, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return State{}, fmt.Errorf("%w: record %q not NUL-terminated", errMalformed, rec)
		}
		out = rest
		if len(rec) == 0 {
			return State{}, fmt.Errorf("%w: empty record", errMalformed)
		}
		line := string(rec)
		switch line[0] {
		case '#':
			if v, ok := strings.CutPrefix(line, "# branch.oid "); ok {
				st.Head, haveHead = v, true
			} else if v, ok := strings.CutPrefix(line, "# branch.head "); ok {
				st.Branch = v
			}
			// Other headers (upstream, ab, stash) carry nothing we use.
		case '1':
			c, err := changeFields(line, 9)
			if err != nil {
				return State{}, err
			}
			st.Changed = append(st.Changed, c)
		case '2':
			c, err := changeFields(line, 10)
			if err != nil {
				return State{}, err
			}
			orig, rest, ok := bytes.Cut(out, []byte{0})
			if !ok || len(orig) == 0 {
				return State{}, fmt.Errorf("%w: rename record %q lacks its original path", errMalformed, line)
			}
			out = rest
			c.OrigPath = string(orig)
			st.Changed = append(st.Changed, c)
		case 'u':
			c, err := changeFields(line, 11)
			if err != nil {
				return State{}, err
			}
			st.Changed = append(st.Changed, c)
		case '?':
			p, ok := strings.CutPrefix(line, "? ")
			if !ok || p == "" {
				return State{}, fmt.Errorf("%w: untracked record %q", errMalformed, line)
			}
			st.Untracked = append(st.Untracked, p)
		case '!':
			// Ignored entries only appear with --ignored, which we never pass.
		default:
			return State{}, fmt.Errorf("%w: unknown record %q", errMalformed, line)
		}
	}
	if !haveHead {
		return State{}, fmt.Errorf("%w: no branch.oid header", errMalformed)
	}
	sort.Slice(st.Changed, func(i, j int) bool { return st.Changed[i].Path < st.Changed[j].Path })
	sort.Strings(st.Untracked)
	return st, nil
}

// changeFields splits a `1`, `2` or `u` record into n space-separated fields
// (the last being the path) and keeps XY, the path and the fields between.
func changeFields(line string, n int) (Change, error) {
	f := strings.SplitN(line, " ", n)
	if len(f) != n || len(f[1]) != 2 || f[n-1] == "" {
		return Change{}, fmt.Errorf("%w: record %q", errMalformed, line)
	}
	return Change{XY: f[1], Path: f[n-1], Detail: strings.Join(f[2:n-1], " ")}, nil
}
