package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// DefaultAuthor is the login of comments written with the workflow's own
// GITHUB_TOKEN.
const DefaultAuthor = "github-actions[bot]"

// Client talks to the GitHub REST API for one repository.
type Client struct {
	APIURL     string // $GITHUB_API_URL, e.g. https://api.github.com
	Token      string
	Repository string // "owner/name"
	HTTP       *http.Client
}

// Comment is one issue comment as the API returns it.
type Comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    struct {
		Login string `json:"login"`
	} `json:"user"`
}

// Upserted says what Upsert did: "created", "updated" or "unchanged".
type Upserted struct {
	Action  string
	ID      int64
	HTMLURL string
}

// ErrForbidden is the API refusing to write: on a pull request from a
// fork the workflow's token is read-only.
var ErrForbidden = errors.New("the token may not write comments here")

// maxPages bounds the comment pages read while looking for ours: 100
// pages of 100 is more discussion than any pull request has.
const maxPages = 100

// Upsert keeps one review comment on pull request number: the first
// comment by author whose body starts with reviewfmt.Marker is edited to
// body (left alone when equal); without one, a comment is created. Only
// author's comments count, so nobody can make the action edit their
// comment by pasting the marker into it.
func (c Client) Upsert(ctx context.Context, number int, author, body string) (Upserted, error) {
	mine, err := c.find(ctx, number, author)
	if err != nil {
		return Upserted{}, err
	}
	payload, err := json.Marshal(map[string]string{"body": body})
	if err != nil {
		return Upserted{}, fmt.Errorf("encode the comment: %w", err)
	}
	if mine != nil {
		if mine.Body == body {
			return Upserted{"unchanged", mine.ID, mine.HTMLURL}, nil
		}
		var got Comment
		path := fmt.Sprintf("/repos/%s/issues/comments/%d", c.Repository, mine.ID)
		if err := c.do(ctx, http.MethodPatch, path, payload, &got); err != nil {
			return Upserted{}, err
		}
		return Upserted{"updated", got.ID, got.HTMLURL}, nil
	}
	var got Comment
	path := fmt.Sprintf("/repos/%s/issues/%d/comments", c.Repository, number)
	if err := c.do(ctx, http.MethodPost, path, payload, &got); err != nil {
		return Upserted{}, err
	}
	return Upserted{"created", got.ID, got.HTMLURL}, nil
}

// find pages through the pull request's comments for ours.
func (c Client) find(ctx context.Context, number int, author string) (*Comment, error) {
	for page := 1; page <= maxPages; page++ {
		var batch []Comment
		path := fmt.Sprintf("/repos/%s/issues/%d/comments?per_page=100&page=%d", c.Repository, number, page)
		if err := c.do(ctx, http.MethodGet, path, nil, &batch); err != nil {
			return nil, err
		}
		for i, cm := range batch {
			if strings.EqualFold(cm.User.Login, author) && strings.HasPrefix(cm.Body, reviewfmt.Marker) {
				return &batch[i], nil
			}
		}
		if len(batch) < 100 {
			return nil, nil
		}
	}
	return nil, nil
}

// maxResponse bounds what one API answer may take in memory.
const maxResponse = 16 << 20

// do sends one API request and decodes the JSON answer into out.
func (c Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	url := strings.TrimRight(c.APIURL, "/") + path
	status, _, data, err := c.roundTrip(ctx, method, url, body)
	if err != nil {
		return err
	}
	if status == http.StatusForbidden || status == http.StatusNotFound && method != http.MethodGet {
		return fmt.Errorf("%s %s: %s: %w", method, url, apiMessage(status, data), ErrForbidden)
	}
	if status/100 != 2 {
		return fmt.Errorf("%s %s: %s", method, url, apiMessage(status, data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %w", method, url, err)
	}
	return nil
}

// roundTrip sends one request to url with the API's headers and returns
// the status, the headers and the answer (bounded by maxResponse); err
// is a request that could not be made or read, never a status.
func (c Client) roundTrip(ctx context.Context, method, url string, body []byte) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: read the answer: %w", method, url, err)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// apiMessage is the status and the API's own message, on one safe line.
func apiMessage(status int, data []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	msg := strconv.Itoa(status) + " " + http.StatusText(status)
	if json.Unmarshal(data, &e) == nil && e.Message != "" {
		msg += ": " + safetext.OneLine(e.Message, 200)
	}
	return msg
}
