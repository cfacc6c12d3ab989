package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// ReviewComment is one stored pull-request review comment.
type ReviewComment struct {
	ID        int64
	PR        int
	Author    string
	Body      string
	Path      string
	Line      int
	Side      string
	CommitID  string
	InReplyTo int64
	Resolved  bool // its thread's state (first comments only)
}

// Review is one review posted through the fake.
type Review struct {
	PR       int
	CommitID string
	Event    string
	Body     string
	Comments int
}

// pullState is the fake's pull-request side. Tests set its knobs through
// the Server's methods.
type pullState struct {
	comments []ReviewComment
	reviews  []Review
	// lines are the lines each path's diff shows (per PR); a comment
	// elsewhere is refused with 422 as GitHub does. nil accepts any.
	lines map[int]map[string]map[int]bool
	// perms are the collaborators' permissions; anyone else reads.
	perms map[string]string
	// rateLimited is how many review writes still answer 429.
	rateLimited int
	// noResolve makes resolveReviewThread answer FORBIDDEN.
	noResolve bool
}

// SetDiffLines says which lines of path a review comment on pr may sit on.
func (s *Server) SetDiffLines(pr int, path string, lines ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pulls.lines == nil {
		s.pulls.lines = map[int]map[string]map[int]bool{}
	}
	if s.pulls.lines[pr] == nil {
		s.pulls.lines[pr] = map[string]map[int]bool{}
	}
	set := map[int]bool{}
	for _, l := range lines {
		set[l] = true
	}
	s.pulls.lines[pr][path] = set
}

// SetPermission gives user a permission (admin, maintain, write, triage, read).
func (s *Server) SetPermission(user, perm string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pulls.perms == nil {
		s.pulls.perms = map[string]string{}
	}
	s.pulls.perms[user] = perm
}

// RateLimit makes the next n review writes answer 429 with Retry-After.
func (s *Server) RateLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls.rateLimited = n
}

// DenyResolve makes resolveReviewThread fail as for a token without the
// permission.
func (s *Server) DenyResolve() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls.noResolve = true
}

// SeedReviewComment stores a review comment as if author had written it
// (inReplyTo 0: a thread's first comment) and returns its id.
func (s *Server) SeedReviewComment(pr int, author, body string, inReplyTo int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.pulls.comments = append(s.pulls.comments, ReviewComment{ID: s.nextID, PR: pr, Author: author, Body: body, InReplyTo: inReplyTo})
	return s.nextID
}

// ReviewComments returns pr's review comments, oldest first.
func (s *Server) ReviewComments(pr int) []ReviewComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ReviewComment
	for _, c := range s.pulls.comments {
		if c.PR == pr {
			out = append(out, c)
		}
	}
	return out
}

// Reviews returns the reviews posted, in order.
func (s *Server) Reviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Review(nil), s.pulls.reviews...)
}

// servePulls answers the pull-request routes; false leaves the request
// to the issue comments. Called with s.mu held.
func (s *Server) servePulls(w http.ResponseWriter, r *http.Request, parts []string, raw []byte) bool {
	switch {
	case len(parts) == 1 && parts[0] == "graphql" && r.Method == http.MethodPost:
		s.graphQL(w, raw)
	case len(parts) == 6 && parts[3] == "collaborators" && parts[5] == "permission":
		perm := s.pulls.perms[parts[4]]
		if perm == "" {
			perm = "read"
		}
		legacy := map[string]string{"maintain": "write", "triage": "read"}[perm]
		if legacy == "" {
			legacy = perm
		}
		writeJSON(w, http.StatusOK, map[string]any{"permission": legacy, "role_name": perm, "user": map[string]string{"login": parts[4]}})
	case len(parts) == 6 && parts[3] == "pulls" && parts[4] == "comments" && r.Method == http.MethodGet:
		id, _ := strconv.ParseInt(parts[5], 10, 64)
		for _, c := range s.pulls.comments {
			if c.ID == id {
				writeJSON(w, http.StatusOK, s.reviewView(c))
				return true
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	case len(parts) == 6 && parts[3] == "pulls" && parts[5] == "comments" && r.Method == http.MethodGet:
		s.listReview(w, r, parts[4])
	case len(parts) == 6 && parts[3] == "pulls" && r.Method == http.MethodPost && (parts[5] == "reviews" || parts[5] == "comments"):
		pr, _ := strconv.Atoi(parts[4])
		s.postReview(w, pr, parts[5] == "reviews", raw)
	case len(parts) == 8 && parts[3] == "pulls" && parts[5] == "comments" && parts[7] == "replies" && r.Method == http.MethodPost:
		pr, _ := strconv.Atoi(parts[4])
		to, _ := strconv.ParseInt(parts[6], 10, 64)
		s.reply(w, pr, to, raw)
	default:
		return false
	}
	return true
}

type newComment struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Side string `json:"side"`
	Body string `json:"body"`
}

// postReview stores a review (all its comments, or none: GitHub refuses
// the whole review for one bad line) or a single review comment.
func (s *Server) postReview(w http.ResponseWriter, pr int, review bool, raw []byte) {
	if s.pulls.rateLimited > 0 {
		s.pulls.rateLimited--
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"message": "API rate limit exceeded"})
		return
	}
	var in struct {
		CommitID string       `json:"commit_id"`
		Event    string       `json:"event"`
		Body     string       `json:"body"`
		Comments []newComment `json:"comments"`
		newComment
	}
	if err := json.Unmarshal(raw, &in); err != nil || in.CommitID == "" {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": "commit_id is required"})
		return
	}
	comments := in.Comments
	if !review {
		c := in.newComment
		c.Body = in.Body // the outer "body" field shadows the embedded one
		comments = []newComment{c}
	}
	for _, c := range comments {
		if c.Side != "RIGHT" && c.Side != "LEFT" || c.Line < 1 || !s.onDiff(pr, c.Path, c.Line) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Unprocessable Entity",
				"errors": []string{"Line could not be resolved"}})
			return
		}
	}
	for _, c := range comments {
		s.nextID++
		s.pulls.comments = append(s.pulls.comments, ReviewComment{ID: s.nextID, PR: pr, Author: s.Author,
			Body: c.Body, Path: c.Path, Line: c.Line, Side: c.Side, CommitID: in.CommitID})
	}
	if review {
		s.pulls.reviews = append(s.pulls.reviews, Review{PR: pr, CommitID: in.CommitID, Event: in.Event, Body: in.Body, Comments: len(comments)})
		writeJSON(w, http.StatusOK, map[string]any{"id": s.nextID, "state": "COMMENTED"})
		return
	}
	writeJSON(w, http.StatusCreated, s.reviewView(s.pulls.comments[len(s.pulls.comments)-1]))
}

func (s *Server) onDiff(pr int, path string, line int) bool {
	if s.pulls.lines == nil || s.pulls.lines[pr] == nil {
		return true
	}
	return s.pulls.lines[pr][path][line]
}

func (s *Server) reply(w http.ResponseWriter, pr int, to int64, raw []byte) {
	var in struct {
		Body string `json:"body"`
	}
	_ = json.Unmarshal(raw, &in)
	for _, c := range s.pulls.comments {
		if c.ID == to && c.PR == pr {
			if c.InReplyTo != 0 {
				break // GitHub: replies to replies are not supported
			}
			s.nextID++
			rc := ReviewComment{ID: s.nextID, PR: pr, Author: s.Author, Body: in.Body, Path: c.Path, Line: c.Line, InReplyTo: to}
			s.pulls.comments = append(s.pulls.comments, rc)
			writeJSON(w, http.StatusCreated, s.reviewView(rc))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

func (s *Server) listReview(w http.ResponseWriter, r *http.Request, pr string) {
	n, _ := strconv.Atoi(pr)
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	page := max(atoi(r.URL.Query().Get("page")), 1)
	var all []map[string]any
	for _, c := range s.pulls.comments {
		if c.PR == n {
			all = append(all, s.reviewView(c))
		}
	}
	lo := min((page-1)*per, len(all))
	hi := min(lo+per, len(all))
	writeJSON(w, http.StatusOK, append([]map[string]any{}, all[lo:hi]...))
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func (s *Server) reviewView(c ReviewComment) map[string]any {
	v := map[string]any{
		"id": c.ID, "body": c.Body, "path": c.Path, "line": c.Line, "side": c.Side, "commit_id": c.CommitID,
		"user":     map[string]string{"login": c.Author},
		"html_url": fmt.Sprintf("%s/pull/%d#discussion_r%d", s.URL, c.PR, c.ID),
	}
	if c.InReplyTo != 0 {
		v["in_reply_to_id"] = c.InReplyTo
	}
	return v
}

// graphQL answers the two operations the Action sends: the reviewThreads
// query and the resolveReviewThread mutation (told apart by their text).
func (s *Server) graphQL(w http.ResponseWriter, raw []byte) {
	var in struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	_ = json.Unmarshal(raw, &in)
	switch {
	case strings.Contains(in.Query, "resolveReviewThread"):
		if s.pulls.noResolve || s.ReadOnly {
			writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"resolveReviewThread": nil},
				"errors": []map[string]string{{"type": "FORBIDDEN", "message": "Resource not accessible by integration"}}})
			return
		}
		id, _ := in.Variables["id"].(string)
		for i, c := range s.pulls.comments {
			if "PRRT_"+strconv.FormatInt(c.ID, 10) == id && c.InReplyTo == 0 {
				s.pulls.comments[i].Resolved = true
				writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"resolveReviewThread": map[string]any{"thread": map[string]any{"id": id, "isResolved": true}}}})
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"type": "NOT_FOUND", "message": "Could not resolve to a node"}}})
	case strings.Contains(in.Query, "reviewThreads"):
		number, _ := in.Variables["number"].(float64)
		nodes := []map[string]any{}
		for _, c := range s.pulls.comments {
			if c.PR == int(number) && c.InReplyTo == 0 {
				nodes = append(nodes, map[string]any{"id": "PRRT_" + strconv.FormatInt(c.ID, 10), "isResolved": c.Resolved,
					"comments": map[string]any{"nodes": []map[string]any{{"databaseId": c.ID, "author": map[string]string{"login": strings.TrimSuffix(c.Author, "[bot]")}}}}})
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"repository": map[string]any{"pullRequest": map[string]any{
			"reviewThreads": map[string]any{"pageInfo": map[string]any{"hasNextPage": false, "endCursor": ""}, "nodes": nodes}}}}})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"message": "unknown operation"}}})
	}
}
