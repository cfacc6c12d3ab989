package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/exec"

	"github.com/tribunal-cc/tribunal/internal/review/ghaction"
)

// githubGuard refuses a pull_request_target job whose workspace has the
// pull request's head checked out, unless --accept-head-checkout (the
// Action's input allow-pull-request-target-head) accepts the risk. The
// job summary names the risk either way; the step outputs carry it.
func (c *cli) githubGuard(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("github guard", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	accept := fs.Bool("accept-head-checkout", false, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github guard", fs, err)
	}
	if fs.NArg() > 0 {
		c.errorf("github guard: only --accept-head-checkout is taken")
		c.hint("tribunal-session github guard [--accept-head-checkout]")
		return exitUsage
	}
	pr, ok := c.githubEvent("guard")
	if !ok {
		return exitUsage
	}
	event := c.getenv("GITHUB_EVENT_NAME")
	if event != "pull_request_target" {
		return 0 // no secrets beside the head's code: nothing to read
	}
	ws, err := ghaction.ReadWorkspace(ctx, workspaceGit, pr.Head)
	if err != nil {
		c.errorf("github guard: %v", err)
		c.hint("check out the base commit before this action (actions/checkout)")
		return exitUsage
	}
	t := ghaction.CheckTarget(event, pr, ws, *accept)
	if t.Risk == "" {
		return 0
	}
	if code := c.appendSummary("guard", []byte(t.Summary())); code != 0 {
		return code
	}
	if !t.Refused {
		c.warnf("github guard: %v (%s): accepted by the input %s", ghaction.ErrHeadCheckout, t.Risk, ghaction.AcceptHeadInput)
		return c.githubOutputs("guard", [][2]string{{"pull-request-target-risk", "accepted"}})
	}
	c.githubOutputs("guard", [][2]string{{"pull-request-target-risk", "refused"}})
	c.errorf("refused to review: %v (%s), in a job that holds the repository's secrets", ghaction.ErrHeadCheckout, t.Risk)
	c.hint("check out the base (actions/checkout with no ref), or set %s: true to accept the risk", ghaction.AcceptHeadInput)
	return exitUsage
}

// workspaceGit runs git in the current directory, the job's workspace.
func workspaceGit(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = os.Environ()
	out, err := cmd.Output()
	return string(out), err
}
