// Package fakellm is a scriptable fake of the OpenAI Chat Completions and
// Responses APIs and of the Gemini generateContent API, which end-to-end
// tests point the openai provider and the real Codex and Gemini CLIs at.
//
// Chat Completions answers in one JSON body; Responses and Gemini's
// streamGenerateContent stream server-sent events the way the real APIs
// do, which is what the CLIs read. Replies are chosen by rules matched
// against the request (API, a fragment of the body), first match wins, each
// with an optional use limit; unmatched requests get Default. Every request
// is recorded for assertions, minus credentials.
//
// The package is for tests only; nothing in the shipped binaries imports it.
package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// The APIs the fake serves, as recorded in Request.API.
const (
	Chat      = "chat"      // POST …/chat/completions
	Responses = "responses" // POST …/responses
	Gemini    = "gemini"    // POST …/models/<model>:generateContent or :streamGenerateContent
)

// Reply is one answer.
type Reply struct {
	// Status, when non-zero, fails the request with this HTTP status and
	// Error as the message.
	Status int
	Error  string
	// RetryAfter is sent as the Retry-After header of an error.
	RetryAfter string
	// Text is the model's message.
	Text string
	// RejectFormat answers a Chat Completions request that carries a
	// response_format with 400, as servers without structured output do;
	// a request without one gets Text.
	RejectFormat bool
	// Usage, when set, is the total token count reported; Cost adds
	// usage.cost to a Chat Completions answer.
	Usage int
	Cost  *float64
	// NoUsage leaves usage out of the answer altogether: a stub's, which
	// tribunal must not take for a verdict (spec §4.8). Every other
	// answer reports usage, as the real servers do.
	NoUsage bool
	// EchoCredentials appends the request's Authorization header and
	// query to the error message, as careless servers do.
	EchoCredentials bool
}

// Text returns a reply with the given message.
func Text(s string) Reply { return Reply{Text: s} }

// Fail returns an HTTP error reply.
func Fail(status int, msg string) Reply { return Reply{Status: status, Error: msg} }

// Rule answers the requests it matches.
type Rule struct {
	// API, when set, must equal the request's API.
	API string
	// Contains, when set, must occur in the request body.
	Contains string
	Reply    Reply
	// Times limits how many requests the rule answers; 0 means no limit.
	Times int
}

// Request is one recorded request.
type Request struct {
	API    string
	Path   string
	Query  string // the raw query
	User   string // the userinfo's "user:password", from basic authentication
	Model  string
	Body   []byte
	Header http.Header // Authorization and x-goog-api-key replaced by "<set>"
}

// HasResponseFormat reports whether a Chat Completions request asked for
// structured output.
func (r Request) HasResponseFormat() bool {
	var v struct {
		RF json.RawMessage `json:"response_format"`
	}
	return json.Unmarshal(r.Body, &v) == nil && len(v.RF) > 0 && string(v.RF) != "null"
}

// Server is the fake.
type Server struct {
	// URL is the server's root (no path).
	URL string
	// Default answers requests no rule matched.
	Default Reply

	mu       sync.Mutex
	rules    []Rule
	uses     []int
	requests []Request
}

// Cleaner is what Start needs from a test.
type Cleaner interface{ Cleanup(func()) }

// Start serves a new fake on a loopback port for the rest of the test.
func Start(tb Cleaner) *Server {
	s := &Server{Default: Fail(http.StatusInternalServerError, "fakellm: no rule matched")}
	hs := httptest.NewServer(s)
	s.URL = hs.URL
	tb.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return s
}

// Add appends rules.
func (s *Server) Add(rules ...Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rules...)
	s.uses = append(s.uses, make([]int, len(rules))...)
}

// Requests returns the recorded requests.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the recorded requests of one API.
func (s *Server) RequestsTo(api string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.API == api {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) pick(r Request) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	for i, rule := range s.rules {
		if rule.Times > 0 && s.uses[i] >= rule.Times {
			continue
		}
		if rule.API != "" && rule.API != r.API || rule.Contains != "" && !bytes.Contains(r.Body, []byte(rule.Contains)) {
			continue
		}
		s.uses[i]++
		return rule.Reply
	}
	return s.Default
}

// ServeHTTP routes by path suffix, so that any base path (/v1, /v1beta)
// works.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 64<<20))
	rec := Request{Path: req.URL.Path, Query: req.URL.RawQuery, Body: body, Header: req.Header.Clone()}
	if u, pw, ok := req.BasicAuth(); ok {
		rec.User = u + ":" + pw
	}
	auth := req.Header.Get("Authorization")
	for _, h := range []string{"Authorization", "X-Goog-Api-Key"} {
		if rec.Header.Get(h) != "" {
			rec.Header.Set(h, "<set>")
		}
	}
	var m struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &m)
	rec.Model = m.Model
	p := req.URL.Path
	switch {
	case req.Method != http.MethodPost:
		http.Error(w, `{"error":{"message":"fakellm: only POST is served"}}`, http.StatusNotFound)
		return
	case strings.HasSuffix(p, "/chat/completions"):
		rec.API = Chat
	case strings.HasSuffix(p, "/responses"):
		rec.API = Responses
	case strings.Contains(p, "/models/") && strings.Contains(p, ":"):
		rec.API = Gemini
		name := p[strings.LastIndex(p, "/models/")+len("/models/"):]
		rec.Model, _, _ = strings.Cut(name, ":")
	default:
		http.Error(w, `{"error":{"message":"fakellm: unknown path"}}`, http.StatusNotFound)
		return
	}
	reply := s.pick(rec)
	if reply.Status != 0 && reply.EchoCredentials {
		reply.Error += fmt.Sprintf(" (Authorization: %q, query: %q)", auth, rec.Query)
	}
	if reply.Status != 0 {
		writeError(w, rec.API, reply)
		return
	}
	switch rec.API {
	case Chat:
		s.chat(w, rec, reply)
	case Responses:
		s.responses(w, rec, reply)
	case Gemini:
		s.gemini(w, req, rec, reply)
	}
}

// writeError sends the API's error body.
func writeError(w http.ResponseWriter, api string, r Reply) {
	w.Header().Set("Content-Type", "application/json")
	if r.RetryAfter != "" {
		w.Header().Set("Retry-After", r.RetryAfter)
	}
	w.WriteHeader(r.Status)
	var body any
	if api == Gemini {
		body = map[string]any{"error": map[string]any{"code": r.Status, "message": r.Error, "status": http.StatusText(r.Status)}}
	} else {
		body = map[string]any{"error": map[string]any{"message": r.Error, "type": "fakellm_error", "code": nil}}
	}
	_ = json.NewEncoder(w).Encode(body)
}

func usage(r Reply) int {
	if r.Usage > 0 {
		return r.Usage
	}
	return 42
}

func (s *Server) chat(w http.ResponseWriter, rec Request, r Reply) {
	if r.RejectFormat && rec.HasResponseFormat() {
		writeError(w, Chat, Reply{Status: http.StatusBadRequest, Error: "response_format is not supported by this server"})
		return
	}
	u := map[string]any{"prompt_tokens": usage(r) - 2, "completion_tokens": 2, "total_tokens": usage(r)}
	if r.Cost != nil {
		u["cost"] = *r.Cost
	}
	body := map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "model": rec.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": r.Text}}},
		"usage": u,
	}
	if r.NoUsage {
		delete(body, "usage")
	}
	writeJSON(w, body)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event; name "" omits the event line.
func sse(w http.ResponseWriter, name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// responses streams a Responses API answer: created, one output message,
// completed with usage (the sequence the Codex CLI reads).
func (s *Server) responses(w http.ResponseWriter, rec Request, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	n := usage(r)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_fake"}})
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_fake", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": r.Text, "annotations": []any{}}}}
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_fake", "output_index": 0, "content_index": 0, "delta": r.Text})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	done := map[string]any{
		"id": "resp_fake", "status": "completed", "model": rec.Model, "output": []any{item},
		"usage": map[string]any{"input_tokens": n - 2, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 2, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": n},
	}
	if r.NoUsage {
		delete(done, "usage")
	}
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": done})
}

// gemini answers generateContent in one body and streamGenerateContent
// (alt=sse) as one event.
func (s *Server) gemini(w http.ResponseWriter, req *http.Request, rec Request, r Reply) {
	n := usage(r)
	body := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": r.Text}}}}},
		"usageMetadata": map[string]any{"promptTokenCount": n - 2, "candidatesTokenCount": 2, "totalTokenCount": n},
		"modelVersion":  rec.Model,
	}
	if r.NoUsage {
		delete(body, "usageMetadata")
	}
	if strings.Contains(rec.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "", body)
		return
	}
	writeJSON(w, body)
}
