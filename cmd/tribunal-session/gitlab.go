package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/tribunal-cc/tribunal/internal/review/gitlabmr"
)

const gitlabHelp = `usage: tribunal-session gitlab publish --markdown FILE --json FILE [--inline=false]

The GitLab job's step after 'tribunal-session review' (ci/gitlab/review.sh),
run in a merge request pipeline. It reads GitLab's environment:
$CI_API_V4_URL, $CI_PROJECT_ID, $CI_MERGE_REQUEST_IID, and the token in
$TRIBUNAL_GITLAB_TOKEN — a project access token (role Reporter or more,
scope api): the job's own CI_JOB_TOKEN cannot write notes.

publish keeps the review on the merge request:
  - one discussion per finding with a verified file:line on a line the
    change added, anchored at the merge request's diff_refs, with the
    finding's fingerprint hidden in it; on the next pipeline a finding
    already discussed is not posted again, and the discussion of a
    finding that is gone is resolved (--inline=false: none of this);
  - ONE note holding the review's Markdown (FILE of --markdown) with links
    to those discussions: the note by the token's own account that starts
    with the review marker is edited, else one is created.
A finding outside the diff stays in the note only; a position GitLab
refuses, a rate limit (429) or a server error (5xx) while posting a
discussion leaves that finding in the note, said there and on stderr.

Exit status: 0 the note is written (or unchanged); 1 the note could not be
written; 2 usage error or a variable missing.
`

func (c *cli) gitlabCmd(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] != "publish" {
		c.errorf("gitlab: give a step: publish")
		c.hint("tribunal-session gitlab publish --markdown tribunal-review.md --json tribunal-review.json")
		return exitUsage
	}
	return c.gitlabPublish(ctx, args[1:])
}

func (c *cli) gitlabPublish(ctx context.Context, args []string) int {
	var md, js string
	var inline bool
	fs := flag.NewFlagSet("gitlab publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&md, "markdown", "", "")
	fs.StringVar(&js, "json", "", "")
	fs.BoolVar(&inline, "inline", true, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("gitlab publish", fs, err)
	}
	if md == "" || js == "" || fs.NArg() > 0 {
		c.errorf("gitlab publish: --markdown FILE and --json FILE are required (the review's --output md=FILE and json=FILE)")
		c.hint("tribunal-session gitlab publish --markdown tribunal-review.md --json tribunal-review.json")
		return exitUsage
	}
	cl, iid, ok := c.gitlabClient()
	if !ok {
		return exitUsage
	}
	in, err := readPublishInput(md, js)
	if err != nil {
		c.errorf("gitlab publish: %v", err)
		c.hint("did 'tribunal-session review' run with --output md=%s --output json=%s?", md, js)
		return exitPublishFailed
	}
	in.IID, in.Inline = iid, inline
	in.Refs = gitlabmr.DiffRefs{BaseSHA: c.getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"), HeadSHA: c.getenv("CI_COMMIT_SHA")}
	res, err := gitlabmr.Publish(ctx, cl, in)
	for _, p := range res.Problems {
		c.warnf("gitlab publish: %s", p)
	}
	for _, f := range res.Fallback {
		c.warnf("gitlab publish: %s — kept in the note", f)
	}
	if err != nil {
		c.errorf("gitlab publish: keep the review note on merge request !%d: %v", iid, err)
		c.hint("check that $TRIBUNAL_GITLAB_TOKEN is a project access token with the api scope and $CI_API_V4_URL is reachable")
		return exitPublishFailed
	}
	c.progressf("review note %s on merge request !%d; discussions: %d posted, %d already open, %d resolved, %d kept in the note",
		res.Note, iid, res.Posted, res.Kept, res.Resolved, len(res.Fallback))
	return 0
}

// gitlabClient reads the API's place, the project and the merge request
// from GitLab's CI variables.
func (c *cli) gitlabClient() (gitlabmr.Client, int, bool) {
	for _, v := range []string{"CI_API_V4_URL", "CI_PROJECT_ID", "CI_MERGE_REQUEST_IID", "TRIBUNAL_GITLAB_TOKEN"} {
		if c.getenv(v) == "" {
			c.errorf("gitlab publish: $%s is not set", v)
			if v == "TRIBUNAL_GITLAB_TOKEN" {
				c.hint("add a project access token (scope api) as the masked CI/CD variable TRIBUNAL_GITLAB_TOKEN; CI_JOB_TOKEN cannot write notes")
			} else {
				c.hint("run it in a merge request pipeline (rules: if: $CI_PIPELINE_SOURCE == \"merge_request_event\")")
			}
			return gitlabmr.Client{}, 0, false
		}
	}
	iid, err := strconv.Atoi(c.getenv("CI_MERGE_REQUEST_IID"))
	if err != nil || iid < 1 {
		c.errorf("gitlab publish: $CI_MERGE_REQUEST_IID %q is not a merge request number", c.getenv("CI_MERGE_REQUEST_IID"))
		return gitlabmr.Client{}, 0, false
	}
	return gitlabmr.Client{APIURL: c.getenv("CI_API_V4_URL"), Token: c.getenv("TRIBUNAL_GITLAB_TOKEN"),
		Project: c.getenv("CI_PROJECT_ID"), HTTP: &http.Client{Timeout: 30 * time.Second}}, iid, true
}

func readPublishInput(md, js string) (gitlabmr.Input, error) {
	body, err := os.ReadFile(md)
	if err != nil {
		return gitlabmr.Input{}, err
	}
	data, err := os.ReadFile(js)
	if err != nil {
		return gitlabmr.Input{}, err
	}
	var r struct {
		Findings []gitlabmr.Finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return gitlabmr.Input{}, &jsonError{path: js, err: err}
	}
	return gitlabmr.Input{Markdown: string(body), Findings: r.Findings}, nil
}

type jsonError struct {
	path string
	err  error
}

func (e *jsonError) Error() string { return e.path + " is not the review's JSON: " + e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }
