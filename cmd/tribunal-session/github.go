package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/review/ghaction"
)

// exitPublishFailed: the review's comment or outputs could not be written.
const exitPublishFailed = 1

const githubHelp = `usage: tribunal-session github prepare --task-file FILE
       tribunal-session github guard [--accept-head-checkout]
       tribunal-session github receipt --markdown FILE [--review-follows]
       tribunal-session github publish --markdown FILE [--sarif FILE] [--comment=false] [--author LOGIN]
                                       [--inline --diff FILE]
       tribunal-session github dismissals [--output FILE] [--author LOGIN]
       tribunal-session github reply [--author LOGIN]

The GitHub Action's steps around 'tribunal-session review' (action.yml),
run inside a workflow job: they read GitHub's environment ($GITHUB_EVENT_PATH,
$GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, $GITHUB_API_URL, $GITHUB_REPOSITORY,
$GITHUB_TOKEN).

prepare reads the pull_request event, writes the PR's title and body to
FILE (the review's --task-file), sets the step outputs base, head, number
and task-file, and prints "BASE HEAD NUMBER" on one line for the script.

guard refuses a pull_request_target job ($GITHUB_EVENT_NAME) whose
workspace has the pull request's head checked out — HEAD is the head, a
merge of it or built on it, or the tracked files are the head's — since
that job holds the repository's secrets while judges read (and, with Bash,
run) the head's code. --accept-head-checkout (the Action's input
allow-pull-request-target-head) accepts the risk. Either way the job
summary names it and the step output pull-request-target-risk is refused
or accepted. Other events, and the base checked out, pass silently.

receipt checks whether the pull request's head commit carries a valid
receipt (verify-receipt) against .tribunal/allowed_signers read from the
BASE commit — a pull request cannot name its own signers — writes the
result as a comment body to FILE for publish, and sets the step outputs
receipt (valid, missing, not-passed, tree-mismatch, signer-not-allowed,
signature-bad) and receipt-signer. --review-follows words the comment for
a job in which a fresh review decides when the receipt does not pass.
Fetch the notes first: git fetch origin refs/notes/tribunal:refs/notes/tribunal.

publish appends the review's Markdown to the job summary, sets the step
outputs outcome and review-id (from the SARIF file) and sarif, and keeps
ONE comment on the pull request up to date: the comment by LOGIN (default
github-actions[bot]) whose body starts with the review marker is edited,
else one is created. On a pull request from a fork the token cannot write
comments: publish says so and exits 0, the review being in the summary.
With --inline (the Action's input inline) and the PR's diff in FILE,
publish also posts the SARIF's findings on lines the diff shows as ONE
pull-request review (event COMMENT, one thread per finding, a hidden
fingerprint marker), posts no finding twice across pushes, resolves the
threads of findings no longer raised (or, without that permission,
replies that they are fixed) and links every thread from the comment. A
rate limit, a 5xx or a line GitHub cannot place (422) leaves the finding
in the comment, with one line in the log; it never fails the job.

dismissals reads the dismissals recorded on the pull request — answers
by LOGIN's token to "/tribunal dismiss REASON" replies, never anyone
else's comments — lists them with who and why, and writes them to FILE
in .tribunal/dismissed's form for the review's --dismissed.

reply handles a pull_request_review_comment or issue_comment event: a
reply "/tribunal dismiss REASON" (or "/tribunal wrong REASON") in one of
tribunal's threads, by a user whose repository permission the API states
as write, maintain or admin, is recorded there by the token (the next
review does not raise that finding until its code changes); from anyone
else it gets a polite refusal and nothing is recorded. In the
conversation, write "/tribunal dismiss FINGERPRINT REASON". Other
comments are left alone.

Exit status: 0 done (receipt: the head's receipt is valid); 1 the comment
or the outputs could not be written; 2 usage error, the event is not a pull
request, guard refused the checkout, or the base has no readable
allowed-signers file; receipt only: 30–34 as verify-receipt (missing, not
passed, tree mismatch, signer not allowed, signature bad).
`

func (c *cli) githubCmd(ctx context.Context, args []string) int {
	if len(args) == 0 || (args[0] != "prepare" && args[0] != "guard" && args[0] != "publish" && args[0] != "receipt" && args[0] != "reply" && args[0] != "dismissals") {
		c.errorf("github: give a step: prepare, guard, receipt, dismissals, publish or reply")
		c.hint("tribunal-session github prepare --task-file task.md")
		return exitUsage
	}
	switch args[0] {
	case "prepare":
		return c.githubPrepare(args[1:])
	case "guard":
		return c.githubGuard(ctx, args[1:])
	case "receipt":
		return c.githubReceipt(ctx, args[1:])
	case "reply":
		return c.githubReply(ctx, args[1:])
	case "dismissals":
		return c.githubDismissals(ctx, args[1:])
	}
	return c.githubPublish(ctx, args[1:])
}

// githubEvent reads the pull request from $GITHUB_EVENT_PATH.
func (c *cli) githubEvent(step string) (ghaction.PullRequest, bool) {
	path := c.getenv("GITHUB_EVENT_PATH")
	if path == "" {
		c.errorf("github %s: $GITHUB_EVENT_PATH is not set", step)
		c.hint("run it as a step of a GitHub Actions job triggered by pull_request")
		return ghaction.PullRequest{}, false
	}
	data, err := os.ReadFile(path)
	if err == nil {
		var pr ghaction.PullRequest
		if pr, err = ghaction.ReadEvent(data); err == nil {
			return pr, true
		}
	}
	c.errorf("github %s: %s (event %q): %v", step, path, c.getenv("GITHUB_EVENT_NAME"), err)
	if errors.Is(err, ghaction.ErrNotPullRequest) {
		c.hint("trigger the workflow with 'on: pull_request'; to review a pushed branch run 'tribunal-session review --base REF' instead")
	}
	return ghaction.PullRequest{}, false
}

func (c *cli) githubPrepare(args []string) int {
	fs := flag.NewFlagSet("github prepare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	taskFile := fs.String("task-file", "", "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github prepare", fs, err)
	}
	if *taskFile == "" || fs.NArg() > 0 {
		c.errorf("github prepare: --task-file FILE is required and nothing else is taken")
		c.hint("tribunal-session github prepare --task-file \"$RUNNER_TEMP/task.md\"")
		return exitUsage
	}
	pr, ok := c.githubEvent("prepare")
	if !ok {
		return exitUsage
	}
	if err := os.WriteFile(*taskFile, []byte(pr.Task()), 0o600); err != nil {
		c.errorf("github prepare: write the task file: %v", err)
		return exitPublishFailed
	}
	fmt.Fprintf(c.stdout, "%s %s %d\n", pr.Base, pr.Head, pr.Number)
	return c.githubOutputs("prepare", [][2]string{
		{"base", pr.Base}, {"head", pr.Head}, {"number", strconv.Itoa(pr.Number)}, {"task-file", *taskFile},
	})
}

// githubOutputs appends to $GITHUB_OUTPUT; outside a job (unset) there
// is nowhere to set them and nothing is written.
func (c *cli) githubOutputs(step string, kv [][2]string) int {
	path := c.getenv("GITHUB_OUTPUT")
	if path == "" {
		return 0
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		err = ghaction.WriteOutputs(f, kv)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		c.errorf("github %s: write the step outputs to $GITHUB_OUTPUT %s: %v", step, path, err)
		return exitPublishFailed
	}
	return 0
}
