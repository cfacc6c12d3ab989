// Package fakegitlab is a loopback fake of the GitLab REST API (v4) for merge request notes and discussions, recording every write, which tests point `tribunal-session gitlab publish` at through $CI_API_V4_URL.
package fakegitlab

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// User is an account.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

// Refs are a merge request's diff_refs.
type Refs struct {
	BaseSHA  string `json:"base_sha"`
	StartSHA string `json:"start_sha"`
	HeadSHA  string `json:"head_sha"`
}

// Diff is one changed file as GET …/diffs lists it.
type Diff struct {
	OldPath     string `json:"old_path"`
	NewPath     string `json:"new_path"`
	Diff        string `json:"diff"`
	NewFile     bool   `json:"new_file"`
	DeletedFile bool   `json:"deleted_file"`
}

// Note is one stored note.
type Note struct {
	ID         int64          `json:"id"`
	Body       string         `json:"body"`
	Author     User           `json:"author"`
	System     bool           `json:"system"`
	Resolvable bool           `json:"resolvable"`
	Resolved   bool           `json:"resolved"`
	Position   map[string]any `json:"position,omitempty"`
}

// Discussion is one stored thread.
type Discussion struct {
	ID    string `json:"id"`
	Notes []Note `json:"notes"`
}

// Call is one write the fake answered (or refused).
type Call struct {
	Method, Path string
	Status       int
}

type mergeRequest struct {
	refs        Refs
	diffs       []Diff
	notes       []Note // the notes list: plain notes and each discussion's notes
	discussions []*Discussion
}

type fault struct {
	method, part  string
	status, times int
}

// Server is the fake. Writes through it are authored by Bot, the
// account of the only token it accepts.
type Server struct {
	URL   string // the API's base, like $CI_API_V4_URL
	Token string
	Bot   User

	srv    *httptest.Server
	mu     sync.Mutex
	mrs    map[string]*mergeRequest // "project/iid"
	faults []fault
	calls  []Call
	nextID int64
}

// Start serves the fake on a loopback port until Close.
func Start(token string) *Server {
	s := &Server{Token: token, Bot: User{ID: 4242, Username: "project_7_bot"}, mrs: map[string]*mergeRequest{}, nextID: 500}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/api/v4"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// SetMergeRequest creates (or replaces the change of) merge request iid
// of project: its diff_refs and its diffs; notes are kept.
func (s *Server) SetMergeRequest(project string, iid int, refs Refs, diffs []Diff) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := project + "/" + strconv.Itoa(iid)
	mr := s.mrs[k]
	if mr == nil {
		mr = &mergeRequest{}
		s.mrs[k] = mr
	}
	mr.refs, mr.diffs = refs, diffs
}

// SeedNote stores a plain note as if author had written it.
func (s *Server) SeedNote(project string, iid int, author User, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if mr := s.mrs[project+"/"+strconv.Itoa(iid)]; mr != nil {
		s.nextID++
		mr.notes = append(mr.notes, Note{ID: s.nextID, Body: body, Author: author})
	}
}

// Fail makes the next times writes (POST, PUT) of method whose path
// contains part answer status.
func (s *Server) Fail(method, part string, status, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, fault{method, part, status, times})
}

// Notes are merge request iid's plain notes (discussions' notes left
// out), oldest first.
func (s *Server) Notes(project string, iid int) []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Note
	if mr := s.mrs[project+"/"+strconv.Itoa(iid)]; mr != nil {
		for _, n := range mr.notes {
			if n.Position == nil && !n.Resolvable {
				out = append(out, n)
			}
		}
	}
	return out
}

// Discussions are merge request iid's threads, oldest first.
func (s *Server) Discussions(project string, iid int) []Discussion {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Discussion
	if mr := s.mrs[project+"/"+strconv.Itoa(iid)]; mr != nil {
		for _, d := range mr.discussions {
			out = append(out, Discussion{ID: d.ID, Notes: append([]Note(nil), d.Notes...)})
		}
	}
	return out
}

// Calls are the writes answered, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

var mrPath = regexp.MustCompile(`^/api/v4/projects/([^/]+)/merge_requests/(\d+)(/[a-z]+)?(?:/([0-9a-f]+))?$`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("PRIVATE-TOKEN") != s.Token && r.Header.Get("Authorization") != "Bearer "+s.Token {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "401 Unauthorized"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method != http.MethodGet {
		if st := s.fault(r); st != 0 {
			s.calls = append(s.calls, Call{r.Method, r.URL.Path, st})
			answer(w, st, map[string]string{"message": http.StatusText(st)})
			return
		}
	}
	if r.URL.Path == "/api/v4/user" && r.Method == http.MethodGet {
		answer(w, http.StatusOK, s.Bot)
		return
	}
	m := mrPath.FindStringSubmatch(r.URL.EscapedPath())
	var mr *mergeRequest
	if m != nil {
		mr = s.mrs[m[1]+"/"+m[2]]
	}
	if mr == nil {
		answer(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
		return
	}
	st, body := s.route(r, mr, m[1], m[2], m[3], m[4])
	if r.Method != http.MethodGet {
		s.calls = append(s.calls, Call{r.Method, r.URL.Path, st})
	}
	answer(w, st, body)
}

func (s *Server) fault(r *http.Request) int {
	for i := range s.faults {
		f := &s.faults[i]
		if f.times > 0 && f.method == r.Method && strings.Contains(r.URL.Path, f.part) {
			f.times--
			return f.status
		}
	}
	return 0
}

func (s *Server) route(r *http.Request, mr *mergeRequest, project, iid, kind, id string) (int, any) {
	switch {
	case kind == "" && r.Method == http.MethodGet:
		return http.StatusOK, map[string]any{"iid": atoi(iid), "web_url": "https://gitlab.example/acme/widgets/-/merge_requests/" + iid, "diff_refs": mr.refs}
	case kind == "/diffs" && r.Method == http.MethodGet:
		return http.StatusOK, mr.diffs
	case kind == "/notes" && r.Method == http.MethodGet:
		return http.StatusOK, mr.notes
	case kind == "/notes" && r.Method == http.MethodPost && id == "":
		return s.postNote(r, mr)
	case kind == "/notes" && r.Method == http.MethodPut:
		return s.putNote(r, mr, id)
	case kind == "/discussions" && r.Method == http.MethodGet:
		return http.StatusOK, mr.discussions
	case kind == "/discussions" && r.Method == http.MethodPost && id == "":
		return s.postDiscussion(r, mr)
	case kind == "/discussions" && r.Method == http.MethodPut:
		return s.resolve(r, mr, id)
	}
	return http.StatusNotFound, map[string]string{"message": "404 Not found"}
}

func (s *Server) postNote(r *http.Request, mr *mergeRequest) (int, any) {
	var in struct{ Body string }
	if json.NewDecoder(r.Body).Decode(&in) != nil || in.Body == "" {
		return http.StatusBadRequest, map[string]string{"message": "400 Bad request - body is missing"}
	}
	s.nextID++
	n := Note{ID: s.nextID, Body: in.Body, Author: s.Bot}
	mr.notes = append(mr.notes, n)
	return http.StatusCreated, n
}

func (s *Server) putNote(r *http.Request, mr *mergeRequest, id string) (int, any) {
	var in struct{ Body string }
	if json.NewDecoder(r.Body).Decode(&in) != nil || in.Body == "" {
		return http.StatusBadRequest, map[string]string{"message": "400 Bad request - body is missing"}
	}
	for i := range mr.notes {
		if strconv.FormatInt(mr.notes[i].ID, 10) == id {
			if mr.notes[i].Author.ID != s.Bot.ID {
				return http.StatusForbidden, map[string]string{"message": "403 Forbidden"}
			}
			mr.notes[i].Body = in.Body
			return http.StatusOK, mr.notes[i]
		}
	}
	return http.StatusNotFound, map[string]string{"message": "404 Note Not Found"}
}

func (s *Server) postDiscussion(r *http.Request, mr *mergeRequest) (int, any) {
	var in struct {
		Body     string
		Position map[string]any
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil || in.Body == "" {
		return http.StatusBadRequest, map[string]string{"message": "400 Bad request - body is missing"}
	}
	if in.Position != nil {
		if why := mr.checkPosition(in.Position); why != "" {
			// GitLab's answer to a position off the diff.
			return http.StatusBadRequest, map[string]any{"message": "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"], :position=>[\"" + why + "\"]}"}
		}
	}
	s.nextID++
	n := Note{ID: s.nextID, Body: in.Body, Author: s.Bot, Resolvable: in.Position != nil, Position: in.Position}
	d := &Discussion{ID: fmt.Sprintf("%040x", s.nextID), Notes: []Note{n}}
	mr.discussions = append(mr.discussions, d)
	mr.notes = append(mr.notes, n)
	return http.StatusCreated, d
}

func (s *Server) resolve(r *http.Request, mr *mergeRequest, id string) (int, any) {
	if r.URL.Query().Get("resolved") != "true" {
		return http.StatusBadRequest, map[string]string{"message": "400 Bad request - resolved is missing"}
	}
	for _, d := range mr.discussions {
		if d.ID == id {
			for i := range d.Notes {
				d.Notes[i].Resolved = true
			}
			return http.StatusOK, d
		}
	}
	return http.StatusNotFound, map[string]string{"message": "404 Not found"}
}

// checkPosition is GitLab's rule for a text position on an added line:
// the merge request's three commits, a changed file, and a new_line that
// one of its hunks adds. It returns why not, "" when valid.
func (mr *mergeRequest) checkPosition(p map[string]any) string {
	str := func(k string) string { v, _ := p[k].(string); return v }
	if str("position_type") != "text" {
		return "position_type must be text"
	}
	if str("base_sha") != mr.refs.BaseSHA || str("start_sha") != mr.refs.StartSHA || str("head_sha") != mr.refs.HeadSHA {
		return "the diff refs are not the merge request's"
	}
	line, _ := p["new_line"].(float64)
	for _, d := range mr.diffs {
		if d.NewPath == str("new_path") && d.OldPath == str("old_path") {
			if addedLines(d.Diff)[int(line)] {
				return ""
			}
			return "new_line is not a line the diff adds"
		}
	}
	return "new_path is not in the diff"
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@`)

// addedLines are the new-file numbers of a diff's '+' lines.
func addedLines(diff string) map[int]bool {
	out := map[int]bool{}
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if m := hunkHeader.FindStringSubmatch(l); m != nil {
			n = atoi(m[1])
			continue
		}
		switch {
		case strings.HasPrefix(l, "+"):
			out[n] = true
			n++
		case strings.HasPrefix(l, " "):
			n++
		}
	}
	return out
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
