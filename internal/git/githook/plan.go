package githook

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// HooksDir is the directory git runs root's hooks from: core.hooksPath
// when set (relative to root, as git takes it), else the common git
// directory's hooks — shared by every worktree of the repository.
// tribunal's git children run with core.hooksPath pinned to the null
// device (projectkey), so the user's own setting is read by scope and
// handed back to git for its path rules (~, relative paths).
func HooksDir(ctx context.Context, git projectkey.GitRunner, root string) (string, error) {
	out, _ := git(ctx, root, "config", "--show-scope", "--get-all", "core.hooksPath") // exit 1: not set
	configured, set := "", false
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		scope, value, ok := strings.Cut(l, "\t")
		if ok && scope != "command" {
			configured, set = value, true // the last one wins, as in git
		}
	}
	var args []string
	if set {
		args = []string{"-c", "core.hooksPath=" + configured, "rev-parse", "--git-path", "hooks"}
	} else {
		args = []string{"rev-parse", "--git-common-dir"}
	}
	p, err := git(ctx, root, args...)
	if err != nil {
		return "", fmt.Errorf("cannot find the repository's hooks directory: %w", err)
	}
	dir := strings.TrimSpace(string(p))
	if !set {
		dir = filepath.Join(dir, "hooks")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return filepath.Clean(dir), nil
}

// zeroSHA is what git's pre-push protocol writes for a ref that does not
// exist (a new branch on the remote, a deleted one here).
func zeroSHA(s string) bool { return strings.Trim(s, "0") == "" }

// Update is one line of what git hands a pre-push hook on stdin.
type Update struct {
	LocalRef, LocalSHA, RemoteRef, RemoteSHA string
}

// ParsePush reads git's pre-push stdin: "<local ref> <local sha> <remote
// ref> <remote sha>" per ref pushed.
func ParsePush(r io.Reader) ([]Update, error) {
	var out []Update
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("cannot read the pre-push line %q: want <local ref> <local sha> <remote ref> <remote sha>", sc.Text())
		}
		out = append(out, Update{f[0], f[1], f[2], f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read what is pushed: %w", err)
	}
	return out, nil
}

// Range is one change a hook reviews: what Head adds to Base (review
// takes the merge base).
type Range struct{ Base, Head string }

// PushRanges is what a push is reviewed as. The pre-commit framework
// names the range in PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF (from, to);
// git names each ref pushed: an update is reviewed from the remote's
// commit, a new branch from newBase (the upstream or the remote's default
// branch; "" when there is none, which skips it with a line), a deletion
// not at all. skipped says why a ref was left out.
func PushRanges(from, to string, updates []Update, newBase func(Update) string) (ranges []Range, skipped []string) {
	if from != "" && to != "" {
		return []Range{{from, to}}, nil
	}
	for _, u := range updates {
		switch {
		case zeroSHA(u.LocalSHA):
			continue // a deletion adds nothing to review
		case !zeroSHA(u.RemoteSHA):
			ranges = append(ranges, Range{u.RemoteSHA, u.LocalSHA})
		default:
			if base := newBase(u); base != "" {
				ranges = append(ranges, Range{base, u.LocalSHA})
			} else {
				skipped = append(skipped, fmt.Sprintf("%s is new and there is no upstream or remote default branch to review it against; not reviewing it (git remote set-head REMOTE --auto)", u.RemoteRef))
			}
		}
	}
	return ranges, skipped
}

// FailOn is the severity a hook blocks at when gated: the flag, else
// TRIBUNAL_FAIL_ON, else critical before a commit and major before a push
// (a push is the last look before others see the change).
func FailOn(k Kind, flag, env string) string {
	switch {
	case flag != "":
		return flag
	case env != "":
		return env
	case k == PrePush:
		return "major"
	}
	return "critical"
}

// ReviewArgs is the `tribunal-session review` command line of one hook
// run: gated always, so that review's exit says what it found (CI's
// advisory default would hide it); Outcome decides what the hook does.
func ReviewArgs(k Kind, r Range, failOn string) []string {
	if k == PreCommit {
		return []string{"--staged", "--gate", "--fail-on", failOn}
	}
	return []string{"--base", r.Base, "--head", r.Head, "--gate", "--fail-on", failOn}
}

// review's exit codes that Outcome reads (cmd/tribunal-session defines
// them; they are documented in its help and the README).
const (
	reviewRejected  = 10
	reviewNoVerdict = 3
)

// Outcome is the hook's exit for review's and the line it says: advisory
// (not gated) never blocks — the review is printed, the commit or push
// goes on; gated blocks on a rejection and on a review that could not
// run, but never on one that reached no verdict (it judged nothing).
func Outcome(k Kind, reviewExit int, gate bool) (exit int, line string) {
	verb, skip := "commit", "git commit --no-verify"
	if k == PrePush {
		verb, skip = "push", "git push --no-verify"
	}
	switch {
	case reviewExit == 0:
		return 0, ""
	case reviewExit == reviewNoVerdict:
		return 0, "the review reached no verdict; the " + verb + " goes ahead"
	case reviewExit == reviewRejected && gate:
		return reviewRejected, verb + " blocked by the review above (" + skip + " skips it once)"
	case reviewExit == reviewRejected:
		return 0, "the review above is advisory: the " + verb + " goes ahead (--gate blocks it)"
	case gate:
		return reviewExit, verb + " blocked: the review could not run (" + skip + " skips it once)"
	}
	return 0, "the review could not run; the " + verb + " goes ahead"
}
