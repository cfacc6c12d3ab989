package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/review/ghaction"
)

// githubReply is the Action's step on a pull_request_review_comment or
// issue_comment event: a "/tribunal dismiss REASON" reply by someone with
// write permission is recorded in the thread, by the workflow's token.
func (c *cli) githubReply(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("github reply", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	author := fs.String("author", ghaction.DefaultAuthor, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github reply", fs, err)
	}
	if fs.NArg() > 0 {
		c.errorf("github reply: takes only --author LOGIN")
		c.hint("tribunal-session github reply")
		return exitUsage
	}
	path := c.getenv("GITHUB_EVENT_PATH")
	data, err := os.ReadFile(path)
	var ev ghaction.CommentEvent
	if err == nil {
		ev, err = ghaction.ReadCommentEvent(data)
	}
	if errors.Is(err, ghaction.ErrNotPRComment) {
		c.progressf("github reply: a comment on an issue, not a pull request; nothing to do")
		return 0
	}
	if err != nil {
		c.errorf("github reply: %s (event %q): %v", path, c.getenv("GITHUB_EVENT_NAME"), err)
		c.hint("run it in a job triggered by pull_request_review_comment or issue_comment")
		return exitUsage
	}
	cl, ok := c.githubClient("reply", "")
	if !ok {
		return exitUsage
	}
	got, err := cl.HandleReply(ctx, ev, *author, time.Now())
	var apiErr *ghaction.APIError
	switch {
	case errors.Is(err, ghaction.ErrForbidden) || errors.As(err, &apiErr) && apiErr.Status == 403:
		c.warnf("github reply: the answer was not written (%v); a pull request from a fork has a read-only token", err)
		return 0
	case err != nil:
		c.errorf("github reply: %v", err)
		c.hint("check that the job has 'permissions: pull-requests: write'")
		return exitPublishFailed
	}
	if got.Action != "ignored" {
		c.progressf("github reply: @%s's %s of %s: %s", got.By, "dismissal", firstNonEmpty(got.Fingerprint, "an unknown finding"), got.Action)
	}
	return 0
}

// githubDismissals reads the dismissals recorded on the pull request
// (comments by the workflow's token only) and writes them to FILE in the
// shared file's form, for the review's --dismissed; it lists them with
// who and why on stdout.
func (c *cli) githubDismissals(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("github dismissals", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("output", "", "")
	author := fs.String("author", ghaction.DefaultAuthor, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github dismissals", fs, err)
	}
	if fs.NArg() > 0 {
		c.errorf("github dismissals: takes --output FILE and --author LOGIN")
		c.hint("tribunal-session github dismissals --output \"$RUNNER_TEMP/github-dismissed\"")
		return exitUsage
	}
	pr, ok := c.githubEvent("dismissals")
	if !ok {
		return exitUsage
	}
	cl, ok := c.githubClient("dismissals", pr.Repository)
	if !ok {
		return exitUsage
	}
	ds, err := cl.Dismissals(ctx, pr.Number, *author)
	if err != nil {
		c.errorf("github dismissals: read pull request #%d's dismissals: %v", pr.Number, err)
		return exitPublishFailed
	}
	var text strings.Builder
	for _, d := range ds {
		e := dismiss.Entry{Fingerprint: d.Fingerprint, Scope: dismiss.GitHub, File: d.File, Line: d.Line, Reason: d.Reason, By: "@" + d.By, At: d.At}
		text.WriteString(dismiss.SharedLines(e))
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(text.String()), 0o600); err != nil {
			c.errorf("github dismissals: %v", err)
			return exitPublishFailed
		}
	}
	c.printDismissals(githubListed(ds))
	return 0
}

// githubListed are ds as dismissals' listing shows them.
func githubListed(ds []ghaction.Dismissal) []listedDismissal {
	out := make([]listedDismissal, 0, len(ds))
	for _, d := range ds {
		out = append(out, listedDismissal{Entry: dismiss.Entry{Fingerprint: d.Fingerprint, Scope: dismiss.GitHub,
			File: d.File, Line: d.Line, Reason: d.Reason, By: "@" + d.By, At: d.At}})
	}
	return out
}
