// Package fakegithub is a loopback fake of the GitHub API's issue
// comments, pull-request reviews, review comments and threads (REST and
// the GraphQL the Action uses) and collaborator permissions, recording
// every call, which tests point the Action's publish step at through
// $GITHUB_API_URL.
package fakegithub

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// Comment is one stored comment.
type Comment struct {
	ID     int64
	Issue  int
	Author string
	Body   string
}

// Call is one request the fake answered.
type Call struct {
	Method, Path string
	Body         string // the request's "body" field, for writes
}

// Server is the fake. Comments written through it are authored by Author
// (the login GitHub gives the workflow token, github-actions[bot]).
type Server struct {
	URL    string
	Author string
	// Token is the only bearer token accepted; ReadOnly makes every write
	// answer 403, as a fork's pull request token does.
	Token    string
	ReadOnly bool

	srv      *httptest.Server
	mu       sync.Mutex
	comments []Comment
	calls    []Call
	nextID   int64
	pulls    pullState // reviews, review comments, threads, permissions: pulls.go
}

// Start serves the fake on a loopback port until Close.
func Start(token string) *Server {
	s := &Server{Author: "github-actions[bot]", Token: token, nextID: 1000}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Seed stores a comment as if author had written it.
func (s *Server) Seed(issue int, author, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.comments = append(s.comments, Comment{ID: s.nextID, Issue: issue, Author: author, Body: body})
	return s.nextID
}

// Comments returns the comments of issue, oldest first.
func (s *Server) Comments(issue int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Issue == issue {
			out = append(out, c)
		}
	}
	return out
}

// Calls returns the writes (POST, PATCH) the fake answered, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if c.Method != http.MethodGet {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Body string `json:"body"`
	}
	var raw []byte
	if r.Method != http.MethodGet {
		raw, _ = io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &req); err != nil {
			http.Error(w, `{"message":"Problems parsing JSON"}`, http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, Body: req.Body})
	if r.Header.Get("Authorization") != "Bearer "+s.Token {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	if r.Method != http.MethodGet && s.ReadOnly && r.URL.Path != "/graphql" {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if s.servePulls(w, r, parts, raw) {
		return
	}
	// repos/OWNER/NAME/issues/N/comments or repos/OWNER/NAME/issues/comments/ID
	if len(parts) != 6 || parts[0] != "repos" || parts[3] != "issues" {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	switch {
	case parts[4] == "comments" && r.Method == http.MethodPatch:
		s.patch(w, parts[5], req.Body)
	case parts[5] == "comments" && r.Method == http.MethodGet:
		s.list(w, r, parts[4])
	case parts[5] == "comments" && r.Method == http.MethodPost:
		issue, _ := strconv.Atoi(parts[4])
		s.nextID++
		c := Comment{ID: s.nextID, Issue: issue, Author: s.Author, Body: req.Body}
		s.comments = append(s.comments, c)
		writeJSON(w, http.StatusCreated, s.view(c))
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	}
}

func (s *Server) patch(w http.ResponseWriter, id, body string) {
	for i, c := range s.comments {
		if strconv.FormatInt(c.ID, 10) == id {
			if c.Author != s.Author {
				writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
				return
			}
			s.comments[i].Body = body
			writeJSON(w, http.StatusOK, s.view(s.comments[i]))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

// list answers one page (per_page, page) of an issue's comments.
func (s *Server) list(w http.ResponseWriter, r *http.Request, issue string) {
	n, _ := strconv.Atoi(issue)
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	var all []map[string]any
	for _, c := range s.comments {
		if c.Issue == n {
			all = append(all, s.view(c))
		}
	}
	lo := min((page-1)*per, len(all))
	hi := min(lo+per, len(all))
	writeJSON(w, http.StatusOK, append([]map[string]any{}, all[lo:hi]...))
}

func (s *Server) view(c Comment) map[string]any {
	return map[string]any{
		"id": c.ID, "body": c.Body, "user": map[string]string{"login": c.Author},
		"html_url": fmt.Sprintf("%s/pull/%d#issuecomment-%d", s.URL, c.Issue, c.ID),
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
