// Package gitlabmr publishes a finished review on a GitLab merge request through the REST API (v4): one sticky note, and one discussion per finding at its changed line, resolved when the finding is gone.
package gitlabmr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Client talks to one project's merge requests. Token is a project,
// group or personal access token with the api scope, sent as
// PRIVATE-TOKEN: the job's CI_JOB_TOKEN cannot write notes.
type Client struct {
	APIURL  string // $CI_API_V4_URL, e.g. https://gitlab.com/api/v4
	Token   string
	Project string // $CI_PROJECT_ID (or the URL-encoded path)
	HTTP    *http.Client
}

// APIError is an answer other than 2xx.
type APIError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, msg)
}

// Transient reports whether err is worth falling back on rather than
// failing: a rate limit (429), a server error (5xx) or no answer at all.
func Transient(err error) bool {
	var api *APIError
	if errors.As(err, &api) {
		return api.Status == http.StatusTooManyRequests || api.Status >= 500
	}
	return err != nil
}

// maxPages bounds the pages of 100 read from a list.
const maxPages = 50

// maxBody bounds what is read of one answer.
const maxBody = 16 << 20

func (c Client) mrPath(iid int, tail string) string {
	return "/projects/" + url.PathEscape(c.Project) + "/merge_requests/" + strconv.Itoa(iid) + tail
}

// do sends one request; in (when not nil) is the JSON body, out (when not
// nil) receives the JSON answer. It returns the answer's X-Next-Page.
func (c Client) do(ctx context.Context, method, path string, in, out any) (string, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return "", err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.APIURL, "/")+path, body)
	if err != nil {
		return "", err
	}
	req.Header.Set("PRIVATE-TOKEN", c.Token)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return "", fmt.Errorf("%s %s: read the answer: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return "", &APIError{Method: method, Path: path, Status: resp.StatusCode, Message: apiMessage(data)}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return "", fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, path, err)
		}
	}
	return resp.Header.Get("X-Next-Page"), nil
}

// apiMessage is GitLab's {"message": …} or {"error": …}, one line.
func apiMessage(data []byte) string {
	var m struct {
		Message any    `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	s := m.Error
	if m.Message != nil {
		b, _ := json.Marshal(m.Message)
		s = strings.Trim(string(b), `"`)
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// list reads every page of path into out (a pointer to a slice), page
// after page as X-Next-Page names them.
func list[T any](ctx context.Context, c Client, path string) ([]T, error) {
	var all []T
	page := "1"
	for i := 0; i < maxPages && page != ""; i++ {
		var items []T
		next, err := c.do(ctx, http.MethodGet, path+"?per_page=100&page="+url.QueryEscape(page), nil, &items)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		page = next
	}
	return all, nil
}

// User is a GitLab account.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

// DiffRefs are the three commits a diff position is anchored to.
type DiffRefs struct {
	BaseSHA  string `json:"base_sha"`
	StartSHA string `json:"start_sha"`
	HeadSHA  string `json:"head_sha"`
}

// MergeRequest is what publishing needs of one.
type MergeRequest struct {
	IID      int      `json:"iid"`
	WebURL   string   `json:"web_url"`
	DiffRefs DiffRefs `json:"diff_refs"`
}

// Diff is one file of a merge request's change, its hunks in Diff.
type Diff struct {
	OldPath     string `json:"old_path"`
	NewPath     string `json:"new_path"`
	Diff        string `json:"diff"`
	NewFile     bool   `json:"new_file"`
	DeletedFile bool   `json:"deleted_file"`
}

// Note is one comment.
type Note struct {
	ID         int64  `json:"id"`
	Body       string `json:"body"`
	Author     User   `json:"author"`
	System     bool   `json:"system"`
	Resolvable bool   `json:"resolvable"`
	Resolved   bool   `json:"resolved"`
}

// Discussion is a thread of notes; an inline one starts with a note
// carrying a position.
type Discussion struct {
	ID    string `json:"id"`
	Notes []Note `json:"notes"`
}

// Me is the token's own account: only its notes are tribunal's.
func (c Client) Me(ctx context.Context) (User, error) {
	var u User
	_, err := c.do(ctx, http.MethodGet, "/user", nil, &u)
	return u, err
}

// MergeRequest reads merge request iid.
func (c Client) MergeRequest(ctx context.Context, iid int) (MergeRequest, error) {
	var mr MergeRequest
	_, err := c.do(ctx, http.MethodGet, c.mrPath(iid, ""), nil, &mr)
	return mr, err
}

// Diffs lists the files merge request iid changes.
func (c Client) Diffs(ctx context.Context, iid int) ([]Diff, error) {
	return list[Diff](ctx, c, c.mrPath(iid, "/diffs"))
}

// Notes lists the merge request's notes.
func (c Client) Notes(ctx context.Context, iid int) ([]Note, error) {
	return list[Note](ctx, c, c.mrPath(iid, "/notes"))
}

// CreateNote adds a note.
func (c Client) CreateNote(ctx context.Context, iid int, body string) (Note, error) {
	var n Note
	_, err := c.do(ctx, http.MethodPost, c.mrPath(iid, "/notes"), map[string]string{"body": body}, &n)
	return n, err
}

// UpdateNote edits note id.
func (c Client) UpdateNote(ctx context.Context, iid int, id int64, body string) error {
	_, err := c.do(ctx, http.MethodPut, c.mrPath(iid, "/notes/"+strconv.FormatInt(id, 10)), map[string]string{"body": body}, nil)
	return err
}

// Discussions lists the merge request's discussions.
func (c Client) Discussions(ctx context.Context, iid int) ([]Discussion, error) {
	return list[Discussion](ctx, c, c.mrPath(iid, "/discussions"))
}

// CreateDiscussion starts a thread at pos.
func (c Client) CreateDiscussion(ctx context.Context, iid int, body string, pos Position) (Discussion, error) {
	var d Discussion
	in := map[string]any{"body": body, "position": pos}
	_, err := c.do(ctx, http.MethodPost, c.mrPath(iid, "/discussions"), in, &d)
	return d, err
}

// ResolveDiscussion marks thread id resolved.
func (c Client) ResolveDiscussion(ctx context.Context, iid int, id string) error {
	_, err := c.do(ctx, http.MethodPut, c.mrPath(iid, "/discussions/"+url.PathEscape(id)+"?resolved=true"), nil, nil)
	return err
}
