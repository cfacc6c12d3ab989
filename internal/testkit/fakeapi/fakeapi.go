// Package fakeapi is a scriptable fake of the Anthropic Messages API that
// end-to-end tests point the real Claude Code CLI at.
//
// It answers the CLI's HEAD preflight, streams every POST /v1/messages reply
// as server-sent events the way the real API does (text and tool_use blocks,
// including the StructuredOutput tool behind --json-schema), and can instead
// fail with an HTTP error, wait, or drop the stream. Replies are chosen by
// rules matched against the request (model, system prompt, last user
// message, offered tools), first match wins, each with an optional use
// limit. Every request is recorded for assertions, minus credentials.
//
// The package is for tests only; nothing in the shipped binaries imports it.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// maxBody caps a recorded request body. Claude Code's requests carry the
// whole conversation and tool list (about 50 KB for a short session).
const maxBody = 64 << 20

// Match selects requests. Every non-empty field must hold; the zero Match
// matches every Messages request.
type Match struct {
	// Model is the exact model id of the request.
	Model string
	// SystemContains must occur in the system prompt (all system blocks).
	SystemContains string
	// SystemLacks must not occur in the system prompt.
	SystemLacks string
	// UserContains must occur in the last role:"user" message (its text
	// blocks and tool results).
	UserContains string
	// AnyContains must occur somewhere in the system prompt or any message.
	AnyContains string
	// Tool must be offered (e.g. StructuredOutputTool).
	Tool string
	// WithoutTool must not be offered.
	WithoutTool string
	// Func, when set, must return true.
	Func func(*Request) bool
}

// Matches reports whether r satisfies every condition of m.
func (m Match) Matches(r *Request) bool {
	switch {
	case m.Model != "" && r.Model() != m.Model,
		m.SystemContains != "" && !strings.Contains(r.SystemText(), m.SystemContains),
		m.SystemLacks != "" && strings.Contains(r.SystemText(), m.SystemLacks),
		m.UserContains != "" && !strings.Contains(r.LastUserText(), m.UserContains),
		m.AnyContains != "" && !strings.Contains(r.AllText(), m.AnyContains),
		m.Tool != "" && !r.HasTool(m.Tool),
		m.WithoutTool != "" && r.HasTool(m.WithoutTool),
		m.Func != nil && !m.Func(r):
		return false
	}
	return true
}

// Rule answers the requests it matches.
type Rule struct {
	// Name labels the rule in logs and failure messages.
	Name string
	Match
	// Replies are used one per matched request, in order; the last one
	// repeats once the others are used (unless Times ends the rule).
	Replies []Reply
	// Respond, when set, computes the reply from the request instead (a
	// conversation that must quote an earlier tool result, say).
	Respond func(*Request) Reply
	// Times limits how many requests the rule answers; 0 means no limit. A
	// used-up rule is skipped and later rules get their chance.
	Times int
}

// Server is the fake. Its zero value is not usable; call New or Start.
type Server struct {
	// URL is the base URL when the server was made by Start.
	URL string
	// Default answers Messages requests that no rule matched.
	Default Reply
	// Log, when set, receives one line per request.
	Log func(format string, args ...any)

	mu       sync.Mutex
	rules    []Rule
	uses     []int
	requests []*Request
	closed   chan struct{}
	once     sync.Once
}

// New returns a server with no rules whose default reply is a short text.
func New() *Server {
	return &Server{Default: Text("fake default reply"), closed: make(chan struct{})}
}

// Cleaner is what Start needs from a test: *testing.T and *testing.B
// satisfy it.
type Cleaner interface {
	Cleanup(func())
}

// Start serves a new fake on a loopback port for the rest of the test and
// sets URL, which is the value for ANTHROPIC_BASE_URL.
func Start(tb Cleaner) *Server {
	s := New()
	hs := httptest.NewServer(s)
	s.URL = hs.URL
	tb.Cleanup(func() {
		s.Close()
		hs.CloseClientConnections()
		hs.Close()
	})
	return s
}

// Close ends every pending delay at once, so that a server with a hanging
// reply can shut down.
func (s *Server) Close() {
	s.once.Do(func() { close(s.closed) })
}

// Add appends a rule and returns its index (see Uses and Request.Rule).
func (s *Server) Add(r Rule) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, r)
	s.uses = append(s.uses, 0)
	return len(s.rules) - 1
}

// Queue adds a rule that answers the next len(replies) Messages requests
// not taken by an earlier rule, one reply each, in order.
func (s *Server) Queue(replies ...Reply) int {
	return s.Add(Rule{Name: "queue", Replies: replies, Times: len(replies)})
}

// Uses is how many requests rule i has answered.
func (s *Server) Uses(i int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uses[i]
}

// Requests returns a copy of every recorded request, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = *r
	}
	return out
}

// Messages returns the recorded Messages API calls that f accepts (all of
// them when f is nil).
func (s *Server) Messages(f func(*Request) bool) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.IsMessages() && (f == nil || f(&r)) {
			out = append(out, r)
		}
	}
	return out
}

// ByRule returns the Messages calls that rule i answered.
func (s *Server) ByRule(i int) []Request {
	return s.Messages(func(r *Request) bool { return r.Rule == i })
}

// Summary describes every recorded request on one line each, for failure
// messages.
func (s *Server) Summary() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		b.WriteString(s.describe(&r))
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *Server) describe(r *Request) string {
	if !r.IsMessages() {
		return fmt.Sprintf("#%d %s %s", r.Seq, r.Method, r.Path)
	}
	name := "default"
	s.mu.Lock()
	if r.Rule >= 0 && r.Rule < len(s.rules) {
		name = fmt.Sprintf("rule %d %q", r.Rule, s.rules[r.Rule].Name)
	}
	s.mu.Unlock()
	user := strings.Join(strings.Fields(r.LastUserText()), " ")
	if len(user) > 80 {
		user = user[:80] + "…"
	}
	return fmt.Sprintf("#%d %s model=%s tools=%s session=%s → %s; user: %s", r.Seq, r.Path,
		r.Model(), strings.Join(r.ToolNames(), ","), r.SessionID(), name, user)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(hr.Body, maxBody))
	req := &Request{
		Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.RawQuery,
		Header: cloneHeader(hr.Header), Raw: raw, Rule: -1, Start: time.Now(),
	}
	if err == nil && hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages" {
		var body Body
		if json.Unmarshal(raw, &body) == nil {
			req.Body = &body
		}
	}
	rule, n, handled := s.record(req)
	if s.Log != nil {
		s.Log("fakeapi: %s", s.describe(req))
	}
	defer s.finish(req)

	switch {
	case hr.Method == http.MethodHead:
		// The preflight accepts any status; 200 keeps it quiet.
		w.WriteHeader(http.StatusOK)
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": 10})
	case hr.Method == http.MethodGet && hr.URL.Path == "/v1/models":
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "has_more": false})
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages":
		if !handled {
			writeRaw(w, http.StatusBadRequest, Error(http.StatusBadRequest, "invalid_request_error", "fakeapi: the body is not a Messages request").errorBody())
			return
		}
		s.reply(w, hr, req, choose(rule, n, req))
	default:
		writeRaw(w, http.StatusNotFound, Error(http.StatusNotFound, "not_found_error", "fakeapi: no such endpoint: "+hr.URL.Path).errorBody())
	}
}

// record stores the request and, for a Messages call, picks the rule that
// answers it and counts the use, under one lock so that concurrent calls
// (parallel judges) consume a limited rule exactly as often as it allows.
func (s *Server) record(req *Request) (Rule, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.Seq = len(s.requests)
	s.requests = append(s.requests, req)
	if !req.IsMessages() {
		return Rule{}, 0, false
	}
	for i, rule := range s.rules {
		if rule.Times > 0 && s.uses[i] >= rule.Times {
			continue
		}
		if !rule.Matches(req) {
			continue
		}
		n := s.uses[i]
		s.uses[i]++
		req.Rule = i
		if rule.Respond == nil && len(rule.Replies) == 0 {
			rule.Replies = []Reply{s.Default}
		}
		return rule, n, true
	}
	return Rule{Replies: []Reply{s.Default}}, 0, true
}

// choose is the reply of the n-th use of rule. It runs outside the lock,
// so a Respond function may inspect the server's recordings.
func choose(rule Rule, n int, req *Request) Reply {
	switch {
	case rule.Respond != nil:
		return rule.Respond(req)
	case n < len(rule.Replies):
		return rule.Replies[n]
	default:
		return rule.Replies[len(rule.Replies)-1]
	}
}

func (s *Server) finish(req *Request) {
	s.mu.Lock()
	req.End = time.Now()
	s.mu.Unlock()
}

// reply sends one scripted answer.
func (s *Server) reply(w http.ResponseWriter, hr *http.Request, req *Request, r Reply) {
	if r.Delay > 0 {
		t := time.NewTimer(r.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-hr.Context().Done():
			return
		case <-s.closed:
			return
		}
	}
	if r.Status != 0 {
		writeRaw(w, r.Status, r.errorBody())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Request-Id", fmt.Sprintf("req_fake%06d", req.Seq))
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	out := sse{w: w, f: f}
	prefix := fmt.Sprintf("fake%06d", req.Seq)
	if err := out.event("message_start", messageStart("msg_"+prefix, req.Model(), r)); err != nil {
		return
	}
	if r.Drop {
		s.finish(req)
		// The server closes the connection without ending the chunked
		// body: to the client, a stream cut off mid-message.
		panic(http.ErrAbortHandler)
	}
	streamBlocks(out, prefix, r)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	raw, _ := json.Marshal(v)
	writeRaw(w, status, raw)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
