package ghaction

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// AcceptHeadInput is the Action's input that accepts the risk of judging
// a pull_request_target's head checkout; the refusal's hint names it.
const AcceptHeadInput = "allow-pull-request-target-head"

// Workspace is what the guard needs to know of the job's checkout.
type Workspace struct {
	HEAD string // the commit checked out; "" when there is none
	// Parents are HEAD's parents as its commit object records them: a
	// shallow clone of refs/pull/N/merge keeps them although it cannot
	// walk further, and the merge's second parent is the PR's head.
	Parents []string
	// HeadIsAncestor: the PR's head is reachable from HEAD (a merge ref
	// or a branch built on the head, checked out deeper than one commit).
	HeadIsAncestor bool
	// FilesAreHead: the work tree's tracked files are the head's tree
	// (the head's files checked out over another commit).
	FilesAreHead bool
}

// Git runs git in the workspace with args and returns its stdout; err is
// non-nil when git exits non-zero. The caller owns the process (env, dir).
type Git func(ctx context.Context, args ...string) (string, error)

// ReadWorkspace reads the checkout's facts about the PR's head commit.
// A head that is not in the clone cannot be an ancestor or the files:
// those questions answer false, never an error, so a base-only clone
// (the safe pull_request_target pattern) is not refused.
func ReadWorkspace(ctx context.Context, git Git, head string) (Workspace, error) {
	var ws Workspace
	out, err := git(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return ws, fmt.Errorf("the workspace has no commit checked out: %w", err)
	}
	ws.HEAD = strings.TrimSpace(out)
	if raw, err := git(ctx, "cat-file", "commit", ws.HEAD); err == nil {
		for _, l := range strings.Split(raw, "\n") {
			if l == "" {
				break // the header ends at the first blank line
			}
			if p, ok := strings.CutPrefix(l, "parent "); ok {
				ws.Parents = append(ws.Parents, strings.TrimSpace(p))
			}
		}
	}
	if _, err := git(ctx, "cat-file", "-e", head+"^{commit}"); err != nil {
		return ws, nil
	}
	_, err = git(ctx, "merge-base", "--is-ancestor", head, ws.HEAD)
	ws.HeadIsAncestor = err == nil
	// A head whose tree is HEAD's own (an empty change) brings no file
	// of its author's; else diff against the head's tree compares the
	// tracked files on disk, --no-textconv/--no-ext-diff so no driver of
	// the checkout runs.
	headTree, err1 := git(ctx, "rev-parse", head+"^{tree}")
	ownTree, err2 := git(ctx, "rev-parse", ws.HEAD+"^{tree}")
	if err1 == nil && err2 == nil && headTree == ownTree {
		return ws, nil
	}
	_, err = git(ctx, "diff", "--quiet", "--no-ext-diff", "--no-textconv", head, "--")
	ws.FilesAreHead = err == nil
	return ws, nil
}

// Target is the guard's decision about the job's trigger and checkout.
type Target struct {
	// Risk says why the job judges the PR's head with the base's secrets;
	// "" when it does not (any event but pull_request_target, or the
	// base checked out).
	Risk string
	// Refused: the risk is there and the input did not accept it.
	Refused bool
}

// ErrHeadCheckout is the refusal: a pull_request_target job (which has
// the repository's secrets and a write token) with the PR's head checked
// out, unaccepted.
var ErrHeadCheckout = errors.New("pull_request_target with the pull request's head checked out")

// CheckTarget decides whether the job may review: pull_request_target
// runs the base's workflow with the repository's secrets, so a checkout
// of the head puts code the PR's author wrote in reach of judges (and,
// with Bash, runs it) in a job that holds those secrets. Other events
// and the base checked out (the safe pattern) pass.
func CheckTarget(event string, pr PullRequest, ws Workspace, accepted bool) Target {
	if event != "pull_request_target" {
		return Target{}
	}
	var why string
	switch {
	case ws.HEAD == pr.Head:
		why = "HEAD is the pull request's head commit " + short(pr.Head)
	case contains(ws.Parents, pr.Head):
		why = "HEAD " + short(ws.HEAD) + " is a merge of the pull request's head " + short(pr.Head)
	case ws.HeadIsAncestor:
		why = "HEAD " + short(ws.HEAD) + " contains the pull request's head " + short(pr.Head)
	case ws.FilesAreHead:
		why = "the work tree holds the files of the pull request's head " + short(pr.Head)
	default:
		return Target{}
	}
	return Target{Risk: why, Refused: !accepted}
}

// Summary is the job summary's paragraph naming the risk, refused or
// accepted; "" when there is none.
func (t Target) Summary() string {
	if t.Risk == "" {
		return ""
	}
	risk := "This workflow runs on `pull_request_target`, which gives the job the repository's secrets " +
		"and a write token, and the workspace has the pull request's head checked out (" + t.Risk + "). " +
		"Judges read that code, and with Bash may run it, so a hostile pull request could take those secrets."
	if t.Refused {
		return "### tribunal refused to review\n\n" + risk + "\n\nCheck out the base (actions/checkout with no `ref`), " +
			"or set `" + AcceptHeadInput + ": true` to accept the risk.\n"
	}
	return "### tribunal: risk accepted\n\n" + risk + "\n\nThe input `" + AcceptHeadInput +
		": true` accepts this risk, so the review ran.\n"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
