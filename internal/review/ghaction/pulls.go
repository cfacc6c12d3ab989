package ghaction

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// APIError is an answer outside 2xx from the review endpoints, kept whole
// so the caller can tell a rate limit or a line GitHub will not place
// (422) from a failure.
type APIError struct {
	Method, URL string
	Status      int
	Message     string
	RetryAfter  string // the Retry-After header, "" when absent
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s %s: %s", e.Method, e.URL, e.Message)
	if e.RetryAfter != "" {
		msg += " (retry after " + e.RetryAfter + " s)"
	}
	return msg
}

// RateLimited says GitHub asked us to slow down: 429, or 403 with
// Retry-After or a rate-limit message (GitHub's secondary limits).
func (e *APIError) RateLimited() bool {
	return e.Status == http.StatusTooManyRequests ||
		e.Status == http.StatusForbidden && (e.RetryAfter != "" || strings.Contains(strings.ToLower(e.Message), "rate limit"))
}

// ReviewComment is one pull-request review comment as the API returns it.
type ReviewComment struct {
	ID          int64  `json:"id"`
	InReplyToID int64  `json:"in_reply_to_id"`
	Body        string `json:"body"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	HTMLURL     string `json:"html_url"`
	CreatedAt   string `json:"created_at"`
	User        struct {
		Login string `json:"login"`
	} `json:"user"`
}

// NewComment is one comment of a review being posted.
type NewComment struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Side string `json:"side"`
	Body string `json:"body"`
}

// call sends one request and decodes a 2xx answer into out (when not
// nil); any other answer is an *APIError.
func (c Client) call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
		body = data
	}
	url := path // a full URL (GraphQL's) or a path under the REST API
	if !strings.HasPrefix(path, "http") {
		url = strings.TrimRight(c.APIURL, "/") + path
	}
	status, header, data, err := c.roundTrip(ctx, method, url, body)
	if err != nil {
		return err
	}
	if status/100 != 2 {
		return &APIError{Method: method, URL: url, Status: status,
			Message: apiMessage(status, data), RetryAfter: header.Get("Retry-After")}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %w", method, url, err)
	}
	return nil
}

// ReviewComments are every review comment on pull request number, oldest
// first.
func (c Client) ReviewComments(ctx context.Context, number int) ([]ReviewComment, error) {
	var all []ReviewComment
	for page := 1; page <= maxPages; page++ {
		var batch []ReviewComment
		path := fmt.Sprintf("/repos/%s/pulls/%d/comments?per_page=100&page=%d", c.Repository, number, page)
		if err := c.call(ctx, http.MethodGet, path, nil, &batch); err != nil {
			return nil, err
		}
		all = append(all, batch...)
		if len(batch) < 100 {
			break
		}
	}
	return all, nil
}

// IssueComments are every comment on the pull request's conversation.
func (c Client) IssueComments(ctx context.Context, number int) ([]Comment, error) {
	var all []Comment
	for page := 1; page <= maxPages; page++ {
		var batch []Comment
		path := fmt.Sprintf("/repos/%s/issues/%d/comments?per_page=100&page=%d", c.Repository, number, page)
		if err := c.call(ctx, http.MethodGet, path, nil, &batch); err != nil {
			return nil, err
		}
		all = append(all, batch...)
		if len(batch) < 100 {
			break
		}
	}
	return all, nil
}

// ReviewComment reads one review comment.
func (c Client) ReviewComment(ctx context.Context, id int64) (ReviewComment, error) {
	var rc ReviewComment
	err := c.call(ctx, http.MethodGet, fmt.Sprintf("/repos/%s/pulls/comments/%d", c.Repository, id), nil, &rc)
	return rc, err
}

// PostReview posts one review of event COMMENT on commit with comments.
func (c Client) PostReview(ctx context.Context, number int, commit, body string, comments []NewComment) error {
	in := map[string]any{"commit_id": commit, "event": "COMMENT", "body": body, "comments": comments}
	return c.call(ctx, http.MethodPost, fmt.Sprintf("/repos/%s/pulls/%d/reviews", c.Repository, number), in, nil)
}

// PostComment posts one review comment on its own (a review of one).
func (c Client) PostComment(ctx context.Context, number int, commit string, nc NewComment) error {
	in := map[string]any{"commit_id": commit, "path": nc.Path, "line": nc.Line, "side": nc.Side, "body": nc.Body}
	return c.call(ctx, http.MethodPost, fmt.Sprintf("/repos/%s/pulls/%d/comments", c.Repository, number), in, nil)
}

// Reply answers in the thread of review comment id.
func (c Client) Reply(ctx context.Context, number int, id int64, body string) error {
	path := fmt.Sprintf("/repos/%s/pulls/%d/comments/%d/replies", c.Repository, number, id)
	return c.call(ctx, http.MethodPost, path, map[string]string{"body": body}, nil)
}

// Comment adds a comment to the pull request's conversation.
func (c Client) Comment(ctx context.Context, number int, body string) error {
	path := fmt.Sprintf("/repos/%s/issues/%d/comments", c.Repository, number)
	return c.call(ctx, http.MethodPost, path, map[string]string{"body": body}, nil)
}

// Permission is user's permission on the repository as GitHub states it
// (admin, maintain, write, triage, read or none).
func (c Client) Permission(ctx context.Context, user string) (string, error) {
	var out struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	path := fmt.Sprintf("/repos/%s/collaborators/%s/permission", c.Repository, urlPathSegment(user))
	if err := c.call(ctx, http.MethodGet, path, nil, &out); err != nil {
		return "", err
	}
	if out.RoleName != "" {
		return out.RoleName, nil
	}
	return out.Permission, nil
}

// urlPathSegment escapes a login for a path: a login is [A-Za-z0-9-] and
// a bot's "[bot]", but the event hands it to us.
func urlPathSegment(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (r == '-' || r == '_' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			b.WriteRune(r)
		} else {
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
	}
	return b.String()
}
