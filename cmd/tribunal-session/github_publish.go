package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/review/ghaction"
)

// publishFlags are github publish's options.
type publishFlags struct {
	markdown, sarif, author string
	comment                 bool
	inline                  bool   // review threads: github_inline.go
	diff                    string // the PR's diff, for --inline
}

func (c *cli) githubPublish(ctx context.Context, args []string) int {
	var f publishFlags
	fs := flag.NewFlagSet("github publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.markdown, "markdown", "", "")
	fs.StringVar(&f.sarif, "sarif", "", "")
	fs.StringVar(&f.author, "author", ghaction.DefaultAuthor, "")
	fs.BoolVar(&f.comment, "comment", true, "")
	fs.BoolVar(&f.inline, "inline", false, "")
	fs.StringVar(&f.diff, "diff", "", "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github publish", fs, err)
	}
	if f.markdown == "" || fs.NArg() > 0 {
		c.errorf("github publish: --markdown FILE is required (the review's --output md=FILE)")
		c.hint("tribunal-session github publish --markdown review.md --sarif review.sarif")
		return exitUsage
	}
	body, err := os.ReadFile(f.markdown)
	if err != nil {
		c.errorf("github publish: read the review's Markdown: %v", err)
		c.hint("did 'tribunal-session review' run with --output md=%s?", f.markdown)
		return exitPublishFailed
	}
	outputs := [][2]string{}
	if f.sarif != "" {
		id, outcome, err := c.sarifSummary(f.sarif)
		if err != nil {
			c.errorf("github publish: %s: %v", f.sarif, err)
			return exitPublishFailed
		}
		outputs = append(outputs, [2]string{"outcome", outcome}, [2]string{"review-id", id}, [2]string{"sarif", f.sarif})
	}
	if f.inline && f.comment {
		body = c.publishInline(ctx, f, body)
	}
	if code := c.appendSummary("publish", body); code != 0 {
		return code
	}
	if f.comment {
		up, code := c.upsertComment(ctx, f, string(body))
		if code != 0 {
			return code
		}
		if up.ID != 0 {
			outputs = append(outputs, [2]string{"comment-id", strconv.FormatInt(up.ID, 10)}, [2]string{"comment-url", up.HTMLURL})
		}
	}
	return c.githubOutputs("publish", outputs)
}

func (c *cli) sarifSummary(path string) (id, outcome string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	return reviewfmt.SARIFSummary(data)
}

// appendSummary adds body to the job summary page.
func (c *cli) appendSummary(step string, body []byte) int {
	path := c.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return 0
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.Write(append(body, '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		c.errorf("github %s: write the job summary $GITHUB_STEP_SUMMARY: %v", step, err)
		return exitPublishFailed
	}
	return 0
}

// upsertComment keeps the one review comment on the pull request. A
// read-only token (a fork's pull request) is a warning, not a failure.
func (c *cli) upsertComment(ctx context.Context, f publishFlags, body string) (ghaction.Upserted, int) {
	pr, ok := c.githubEvent("publish")
	if !ok {
		return ghaction.Upserted{}, exitUsage
	}
	repo := c.getenv("GITHUB_REPOSITORY")
	if repo == "" {
		repo = pr.Repository
	}
	token := c.getenv("GITHUB_TOKEN")
	if token == "" {
		c.errorf("github publish: $GITHUB_TOKEN is not set, so the PR comment cannot be written")
		c.hint("pass the token to the step (env: GITHUB_TOKEN: ${{ github.token }}), or --comment=false")
		return ghaction.Upserted{}, exitUsage
	}
	api := c.getenv("GITHUB_API_URL")
	if api == "" {
		api = "https://api.github.com"
	}
	cl := ghaction.Client{APIURL: api, Token: token, Repository: repo}
	up, err := cl.Upsert(ctx, pr.Number, f.author, body)
	switch {
	case errors.Is(err, ghaction.ErrForbidden):
		c.warnf("github publish: the PR comment was not written (%v); the review is in the job summary", err)
		if pr.Fork {
			c.warnf("github publish: pull request #%d comes from a fork, whose workflow token is read-only", pr.Number)
		}
		return ghaction.Upserted{}, 0
	case err != nil:
		c.errorf("github publish: keep the review comment on pull request #%d: %v", pr.Number, err)
		c.hint("check that the job has 'permissions: pull-requests: write' and that $GITHUB_API_URL is reachable")
		return ghaction.Upserted{}, exitPublishFailed
	}
	c.progressf("review comment %s on pull request #%d: %s", up.Action, pr.Number, up.HTMLURL)
	return up, 0
}
