package main

import (
	"context"
	"os"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/review/ghaction"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// githubClient is the REST client for the job's repository, from
// GitHub's environment; ok is false (said on stderr) without a token.
func (c *cli) githubClient(step string, pr string) (ghaction.Client, bool) {
	repo := c.getenv("GITHUB_REPOSITORY")
	if repo == "" {
		repo = pr
	}
	token := c.getenv("GITHUB_TOKEN")
	if token == "" {
		c.errorf("github %s: $GITHUB_TOKEN is not set, so the pull request cannot be read or written", step)
		c.hint("pass the token to the step (env: GITHUB_TOKEN: ${{ github.token }})")
		return ghaction.Client{}, false
	}
	api := c.getenv("GITHUB_API_URL")
	if api == "" {
		api = "https://api.github.com"
	}
	return ghaction.Client{APIURL: api, Token: token, Repository: repo}, true
}

// publishInline posts the review's located findings inside the diff as
// one pull-request review and resolves the threads of findings gone; it
// returns the summary comment's body with a section linking the threads.
// Nothing here fails the job: a finding that cannot be posted stays in
// the summary, with one line in the log saying why.
func (c *cli) publishInline(ctx context.Context, f publishFlags, body []byte) []byte {
	if f.sarif == "" || f.diff == "" {
		c.warnf("github publish: --inline needs --sarif and --diff; every finding is in the summary comment")
		return body
	}
	sarif, err := os.ReadFile(f.sarif)
	var findings []reviewfmt.Finding
	var current map[string]bool
	if err == nil {
		findings, err = reviewfmt.SARIFFindings(sarif)
	}
	if err == nil {
		current, err = reviewfmt.SARIFFingerprints(sarif)
	}
	var diff []byte
	if err == nil {
		diff, err = os.ReadFile(f.diff)
	}
	if err != nil {
		c.warnf("github publish: no review threads: %v; every finding is in the summary comment", err)
		return body
	}
	pr, ok := c.githubEvent("publish")
	if !ok {
		return body
	}
	cl, ok := c.githubClient("publish", pr.Repository)
	if !ok {
		return body
	}
	in := ghaction.Inline{Client: cl, Number: pr.Number, Head: pr.Head, Author: f.author}
	p := in.Sync(ctx, findings, ghaction.Sides(diff), current)
	for _, n := range p.Notes {
		c.warnf("github publish: %s", n)
	}
	c.progressf("review threads on pull request #%d: %d new, %d kept, %d resolved, %d left to the summary",
		pr.Number, p.New, len(p.Threads)-p.New, p.Resolved, len(p.Summary))
	return append(body, reviewfmt.InlineSection(p.Threads, p.Summary, p.Notes)...)
}

// toSuggestion is a judge's suggestion as the review formats carry it.
func toSuggestion(s *severity.Suggestion) *reviewfmt.Suggestion {
	if s == nil {
		return nil
	}
	return &reviewfmt.Suggestion{StartLine: s.StartLine, EndLine: s.EndLine, Lines: s.Lines}
}
