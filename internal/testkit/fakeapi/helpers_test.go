package fakeapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	Name string
	Data map[string]any
}

// parseSSE splits a complete event stream, failing on anything that is not
// exactly "event: X\ndata: {json}\n\n" frames.
func parseSSE(t *testing.T, body string) []sseEvent {
	t.Helper()
	if !strings.HasSuffix(body, "\n\n") {
		t.Fatalf("stream does not end with a blank line: %q", body)
	}
	var out []sseEvent
	for _, frame := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		lines := strings.Split(frame, "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "event: ") || !strings.HasPrefix(lines[1], "data: ") {
			t.Fatalf("malformed frame %q", frame)
		}
		var data map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(lines[1], "data: ")), &data); err != nil {
			t.Fatalf("frame data: %v", err)
		}
		name := strings.TrimPrefix(lines[0], "event: ")
		if data["type"] != name {
			t.Fatalf("event %q carries type %v", name, data["type"])
		}
		out = append(out, sseEvent{Name: name, Data: data})
	}
	return out
}

// messagesBody builds a request body the way Claude Code 2.1.332 does:
// system as blocks, string or block content, role "system" messages.
func messagesBody(model, system string, tools []string, msgs ...any) string {
	var toolDefs []map[string]any
	for _, n := range tools {
		toolDefs = append(toolDefs, map[string]any{"name": n, "description": "d", "input_schema": map[string]any{"type": "object"}})
	}
	raw, _ := json.Marshal(map[string]any{
		"model": model, "stream": true, "max_tokens": 32000,
		"system":   []map[string]any{{"type": "text", "text": "billing"}, {"type": "text", "text": system}},
		"messages": msgs, "tools": toolDefs,
	})
	return string(raw)
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }
func assistant(content any) map[string]any {
	return map[string]any{"role": "assistant", "content": content}
}
func sysMsg(content any) map[string]any { return map[string]any{"role": "system", "content": content} }

// post sends a Messages request with credentials and a session header and
// returns the response with its whole body.
func post(t *testing.T, s *Server, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL+"/v1/messages?beta=true", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", "secret-key")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	req.Header.Set("X-Claude-Code-Session-Id", "sess-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, string(data)
}

// replyText posts a request and returns the text the reply streamed.
func replyText(t *testing.T, s *Server, body string) string {
	t.Helper()
	_, raw := post(t, s, body)
	var b strings.Builder
	for _, e := range parseSSE(t, raw) {
		if d, ok := e.Data["delta"].(map[string]any); ok && d["type"] == "text_delta" {
			b.WriteString(d["text"].(string))
		}
	}
	return b.String()
}

// req builds a recorded request from a body, as ServeHTTP would.
func req(t *testing.T, body string) *Request {
	t.Helper()
	var b Body
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	return &Request{Method: http.MethodPost, Path: "/v1/messages", Body: &b, Header: http.Header{}}
}

// recorder is a minimal ResponseWriter for calling ServeHTTP directly.
type recorder struct {
	header http.Header
	status int
	body   strings.Builder
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
