// Package ghaction is the GitHub Actions side of `tribunal-session review`:
// it reads the pull_request event, writes step outputs and the job summary,
// and keeps one PR comment up to date through the REST API.
package ghaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// PullRequest is what a review needs from a pull_request event payload.
type PullRequest struct {
	Number     int
	Title      string
	Body       string
	Base, Head string // commit ids
	Repository string // "owner/name" of the base repository
	Fork       bool   // the head is in another repository: the token is read-only
}

// ErrNotPullRequest says the event is not about a pull request (a push,
// a schedule): there is no change to review and no PR to comment on.
var ErrNotPullRequest = errors.New("the event payload has no pull_request")

// ReadEvent reads the event payload GitHub writes to $GITHUB_EVENT_PATH.
// It works for pull_request and pull_request_target events (both carry
// the same "pull_request" object) and refuses a payload without the base
// and head commits, which the review diffs.
func ReadEvent(data []byte) (PullRequest, error) {
	var ev struct {
		PullRequest *struct {
			Number int    `json:"number"`
			Title  string `json:"title"`
			Body   string `json:"body"`
			Base   struct {
				SHA  string `json:"sha"`
				Repo struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"base"`
			Head struct {
				SHA  string `json:"sha"`
				Repo *struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return PullRequest{}, fmt.Errorf("the event payload is not JSON: %w", err)
	}
	p := ev.PullRequest
	if p == nil {
		return PullRequest{}, ErrNotPullRequest
	}
	if p.Number <= 0 || p.Base.SHA == "" || p.Head.SHA == "" {
		return PullRequest{}, fmt.Errorf("the pull_request in the event payload lacks its number, base.sha or head.sha")
	}
	if !isCommitID(p.Base.SHA) || !isCommitID(p.Head.SHA) {
		return PullRequest{}, fmt.Errorf("the pull_request's base.sha or head.sha is not a commit id")
	}
	pr := PullRequest{
		Number: p.Number, Title: p.Title, Body: p.Body,
		Base: p.Base.SHA, Head: p.Head.SHA, Repository: p.Base.Repo.FullName,
	}
	// A deleted fork has no head repository; treat it as a fork.
	pr.Fork = p.Head.Repo == nil || !strings.EqualFold(p.Head.Repo.FullName, pr.Repository)
	return pr, nil
}

// isCommitID accepts a full SHA-1 or SHA-256 object name: the ids go on
// git's command line, where anything else could be an option.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// Task is what the change was meant to do, as the review's --task-file:
// the PR's title, a blank line and its body.
func (pr PullRequest) Task() string {
	t := strings.TrimSpace(pr.Title)
	if b := strings.TrimSpace(strings.ReplaceAll(pr.Body, "\r\n", "\n")); b != "" {
		t += "\n\n" + b
	}
	return t + "\n"
}

// WriteOutputs appends step outputs to w (the $GITHUB_OUTPUT file) in the
// multi-line form, its delimiter chosen so no value can end it early.
func WriteOutputs(w io.Writer, kv [][2]string) error {
	var b strings.Builder
	for _, p := range kv {
		delim := "TRIBUNAL_EOF"
		for strings.Contains(p[1], delim) {
			delim += "_"
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", p[0], delim, p[1], delim)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write the step outputs: %w", err)
	}
	return nil
}
