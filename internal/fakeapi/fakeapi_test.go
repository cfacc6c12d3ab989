package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
// system as blocks, string or block content, a role "system" message.
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

func TestStreamFraming(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{{
		Blocks:      []OutBlock{TextBlock("I will run it."), ToolUseBlock("Bash", map[string]string{"command": "echo hi"})},
		InputTokens: 42, OutputTokens: 7,
	}}})
	resp, body := post(t, s, messagesBody("claude-x", "sys", []string{"Bash"}, user("go")))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content-type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	evs := parseSSE(t, body)
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
	}
	want := []string{"message_start",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !slices.Equal(names, want) {
		t.Fatalf("events %v, want %v", names, want)
	}
	msg := evs[0].Data["message"].(map[string]any)
	usage := msg["usage"].(map[string]any)
	if msg["model"] != "claude-x" || msg["role"] != "assistant" || msg["stop_reason"] != nil ||
		!strings.HasPrefix(msg["id"].(string), "msg_") || usage["input_tokens"] != 42.0 {
		t.Errorf("message_start: %v", msg)
	}
	if cb := evs[1].Data["content_block"].(map[string]any); cb["type"] != "text" || evs[1].Data["index"] != 0.0 {
		t.Errorf("first block start: %v", evs[1].Data)
	}
	if d := evs[2].Data["delta"].(map[string]any); d["type"] != "text_delta" || d["text"] != "I will run it." {
		t.Errorf("text delta: %v", d)
	}
	cb := evs[4].Data["content_block"].(map[string]any)
	if cb["type"] != "tool_use" || cb["name"] != "Bash" || !strings.HasPrefix(cb["id"].(string), "toolu_") || evs[4].Data["index"] != 1.0 {
		t.Errorf("tool block start: %v", evs[4].Data)
	}
	d := evs[5].Data["delta"].(map[string]any)
	if d["type"] != "input_json_delta" || d["partial_json"] != `{"command":"echo hi"}` {
		t.Errorf("tool delta: %v", d)
	}
	if evs[6].Data["index"] != 1.0 {
		t.Errorf("second block stop index: %v", evs[6].Data)
	}
	md := evs[7].Data
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" || md["usage"].(map[string]any)["output_tokens"] != 7.0 {
		t.Errorf("message_delta: %v", md)
	}
}

func TestStopReason(t *testing.T) {
	cases := []struct {
		name  string
		reply Reply
		want  string
	}{
		{"text ends the turn", Text("done"), "end_turn"},
		{"a tool call", Bash("ls"), "tool_use"},
		{"structured output is a tool call", Structured(map[string]int{"score": 1}), "tool_use"},
		{"empty reply", Reply{}, "end_turn"},
		{"explicit", Reply{Blocks: []OutBlock{TextBlock("x")}, StopReason: "max_tokens"}, "max_tokens"},
	}
	for _, tc := range cases {
		if got := tc.reply.stopReason(); got != tc.want {
			t.Errorf("%s: stop reason %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStructuredReplyStreamsTheObject(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{Structured(map[string]any{"score": 0.5, "passed": false})}})
	_, body := post(t, s, messagesBody("m", "sys", []string{StructuredOutputTool}, user("judge")))
	evs := parseSSE(t, body)
	if cb := evs[1].Data["content_block"].(map[string]any); cb["name"] != StructuredOutputTool {
		t.Fatalf("block: %v", cb)
	}
	var input map[string]any
	json.Unmarshal([]byte(evs[2].Data["delta"].(map[string]any)["partial_json"].(string)), &input)
	if input["score"] != 0.5 || input["passed"] != false {
		t.Errorf("structured input %v", input)
	}
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

func TestMatch(t *testing.T) {
	toolResult := user([]map[string]any{{"type": "tool_result", "tool_use_id": "t1", "content": "OUTPUT-9", "is_error": false}})
	judge := req(t, messagesBody("claude-opus-4-7", "# Tribunal Standard Judge\nrules", []string{StructuredOutputTool},
		user([]map[string]any{{"type": "text", "text": "<system-reminder>r</system-reminder>"}, {"type": "text", "text": "score this ---TRANSCRIPT TAIL---"}}),
		sysMsg("environment block"),
	))
	conv := req(t, messagesBody("claude-opus-5-5", "You are an agent", []string{"Bash", "Read"},
		user("first prompt"),
		sysMsg([]map[string]any{{"type": "text", "text": "env"}}),
		assistant([]map[string]any{{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]string{"command": "ls"}}}),
		toolResult,
		sysMsg("trailing system note"),
	))
	cases := []struct {
		name string
		m    Match
		r    *Request
		want bool
	}{
		{"zero match takes all", Match{}, judge, true},
		{"model equal", Match{Model: "claude-opus-4-7"}, judge, true},
		{"model differs", Match{Model: "claude-opus-4-7"}, conv, false},
		{"model is exact, not a prefix", Match{Model: "claude-opus-4"}, judge, false},
		{"system contains", Match{SystemContains: "# Tribunal Standard Judge"}, judge, true},
		{"system lacks it", Match{SystemContains: "# Tribunal Standard Judge"}, conv, false},
		{"system across blocks", Match{SystemContains: "billing"}, conv, true},
		{"system lacks: holds", Match{SystemLacks: "# Tribunal"}, conv, true},
		{"system lacks: fails", Match{SystemLacks: "# Tribunal"}, judge, false},
		{"user text in second block", Match{UserContains: "---TRANSCRIPT TAIL---"}, judge, true},
		{"last user is before a system message", Match{UserContains: "OUTPUT-9"}, conv, true},
		{"earlier user text is not the last", Match{UserContains: "first prompt"}, conv, false},
		{"system messages are not user text", Match{UserContains: "trailing system note"}, conv, false},
		{"any text: earlier user message", Match{AnyContains: "first prompt"}, conv, true},
		{"any text: system message", Match{AnyContains: "environment block"}, judge, true},
		{"any text: absent", Match{AnyContains: "nowhere"}, judge, false},
		{"tool offered", Match{Tool: StructuredOutputTool}, judge, true},
		{"tool not offered", Match{Tool: StructuredOutputTool}, conv, false},
		{"without tool: holds", Match{WithoutTool: StructuredOutputTool}, conv, true},
		{"without tool: fails", Match{WithoutTool: StructuredOutputTool}, judge, false},
		{"func", Match{Func: func(r *Request) bool { return len(r.ToolUses()) == 1 }}, conv, true},
		{"all conditions must hold", Match{Model: "claude-opus-4-7", Tool: "Bash"}, judge, false},
	}
	for _, tc := range cases {
		if got := tc.m.Matches(tc.r); got != tc.want {
			t.Errorf("%s: Matches = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRequestAccessors(t *testing.T) {
	r := req(t, messagesBody("m", "sys", []string{"Bash", StructuredOutputTool},
		user("hello"),
		assistant([]map[string]any{{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]string{"command": "ls"}}}),
		user([]map[string]any{{"type": "tool_result", "tool_use_id": "t1", "is_error": true,
			"content": []map[string]any{{"type": "text", "text": "Exit code 10"}, {"type": "text", "text": "summary"}}}}),
	))
	if got := r.LastUserText(); got != "Exit code 10\nsummary" {
		t.Errorf("LastUserText %q", got)
	}
	res := r.ToolResults()
	if len(res) != 1 || !res[0].IsError || res[0].ToolUseID != "t1" {
		t.Errorf("ToolResults %+v", res)
	}
	uses := r.ToolUses()
	if len(uses) != 1 || uses[0].Name != "Bash" || string(uses[0].Input) != `{"command":"ls"}` {
		t.Errorf("ToolUses %+v", uses)
	}
	if names := r.ToolNames(); !slices.Equal(names, []string{"Bash", StructuredOutputTool}) {
		t.Errorf("ToolNames %v", names)
	}
	if tool, ok := r.Tool("Bash"); !ok || string(tool.InputSchema) != `{"type":"object"}` {
		t.Errorf("Tool(Bash) = %+v, %v", tool, ok)
	}
	if r.SystemText() != "billing\nsys" || !strings.Contains(r.AllText(), "hello") {
		t.Errorf("SystemText %q / AllText %q", r.SystemText(), r.AllText())
	}
	var none Request
	if none.LastUserText() != "" || none.ToolUses() != nil || none.HasTool("Bash") || none.Model() != "" {
		t.Error("a request without a body must answer empty")
	}
}

func TestContentDecoding(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]`, "a\nb"},
		{`null`, ""},
		{`[]`, ""},
	}
	for _, tc := range cases {
		var c Content
		if err := json.Unmarshal([]byte(tc.in), &c); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := c.Text(); got != tc.want {
			t.Errorf("%s: Text %q, want %q", tc.in, got, tc.want)
		}
	}
	var c Content
	if err := json.Unmarshal([]byte(`42`), &c); err == nil {
		t.Error("a number is not content")
	}
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

func TestRuleLimitsAndOrder(t *testing.T) {
	s := Start(t)
	s.Default = Text("default")
	once := s.Add(Rule{Name: "once", Match: Match{Model: "a"}, Replies: []Reply{Text("a-once")}, Times: 1})
	seq := s.Add(Rule{Name: "sequence", Match: Match{Model: "a"}, Replies: []Reply{Text("a-1"), Text("a-2")}})
	queue := s.Queue(Text("q-1"), Text("q-2"))
	body := func(model string) string { return messagesBody(model, "s", nil, user("x")) }

	got := []string{
		replyText(t, s, body("a")), // the limited rule first
		replyText(t, s, body("a")), // used up: falls through to the sequence
		replyText(t, s, body("a")),
		replyText(t, s, body("a")), // the last reply repeats
		replyText(t, s, body("b")), // no model rule: the queue
		replyText(t, s, body("b")),
		replyText(t, s, body("b")), // queue empty: default
	}
	want := []string{"a-once", "a-1", "a-2", "a-2", "q-1", "q-2", "default"}
	if !slices.Equal(got, want) {
		t.Errorf("replies %v, want %v", got, want)
	}
	if s.Uses(once) != 1 || s.Uses(seq) != 3 || s.Uses(queue) != 2 {
		t.Errorf("uses %d %d %d", s.Uses(once), s.Uses(seq), s.Uses(queue))
	}
	if n := len(s.ByRule(-1)); n != 1 {
		t.Errorf("%d requests fell to the default, want 1", n)
	}
	if rs := s.ByRule(seq); len(rs) != 3 || rs[0].Seq != 1 || rs[2].Seq != 3 {
		t.Errorf("ByRule(sequence) = %v", rs)
	}
}

func TestRuleWithoutRepliesUsesDefault(t *testing.T) {
	s := Start(t)
	s.Default = Text("the default")
	s.Add(Rule{Name: "counter only"})
	if got := replyText(t, s, messagesBody("m", "s", nil, user("x"))); got != "the default" {
		t.Errorf("reply %q", got)
	}
}

func TestLimitHoldsUnderConcurrency(t *testing.T) {
	s := Start(t)
	limited := s.Add(Rule{Replies: []Reply{Text("limited")}, Times: 5})
	s.Default = Text("other")
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := 0
	body := messagesBody("m", "s", nil, user("x"))
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(s.URL+"/v1/messages", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Error(err)
				return
			}
			if strings.Contains(string(raw), `"text":"limited"`) {
				mu.Lock()
				count++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if count != 5 || s.Uses(limited) != 5 {
		t.Errorf("limited rule answered %d (uses %d), want 5", count, s.Uses(limited))
	}
}

func TestRespondSeesRecordings(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Respond: func(r *Request) Reply {
		// Calling back into the server must not deadlock.
		return Text(strings.Repeat("x", len(s.Requests())) + " " + r.LastUserText())
	}})
	post(t, s, messagesBody("m", "s", nil, user("one")))
	if got := replyText(t, s, messagesBody("m", "s", nil, user("two"))); got != "xx two" {
		t.Errorf("reply %q", got)
	}
}

func TestErrorReply(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{Error(529, "overloaded_error", "busy")}, Times: 1})
	s.Add(Rule{Replies: []Reply{{Status: 500}}})
	for _, want := range []struct {
		status       int
		typ, message string
	}{{529, "overloaded_error", "busy"}, {500, "api_error", "fake Internal Server Error"}} {
		resp, body := post(t, s, messagesBody("m", "s", nil, user("x")))
		var e struct {
			Type  string `json:"type"`
			Error struct{ Type, Message string }
		}
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			t.Fatalf("error body %q: %v", body, err)
		}
		if resp.StatusCode != want.status || e.Type != "error" || e.Error.Type != want.typ || e.Error.Message != want.message {
			t.Errorf("got %d %+v, want %+v", resp.StatusCode, e, want)
		}
	}
}

func TestDelay(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{{Blocks: []OutBlock{TextBlock("late")}, Delay: 150 * time.Millisecond}}})
	start := time.Now()
	if got := replyText(t, s, messagesBody("m", "s", nil, user("x"))); got != "late" {
		t.Errorf("reply %q", got)
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("answered after %s, before the delay", took)
	}
}

func TestDelayEndsWhenTheClientGivesUp(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{{Delay: time.Hour}}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	hr, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/messages", strings.NewReader(messagesBody("m", "s", nil, user("x"))))
	if _, err := http.DefaultClient.Do(hr); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the client's deadline, got %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Requests()[0].End.IsZero() {
		if time.Now().After(deadline) {
			t.Fatal("the handler still waits after the client left")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCloseEndsDelays(t *testing.T) {
	s := New()
	s.Add(Rule{Replies: []Reply{{Delay: time.Hour}}})
	done := make(chan struct{})
	go func() {
		rec := &recorder{header: http.Header{}}
		hr, _ := http.NewRequest(http.MethodPost, "/v1/messages", strings.NewReader(messagesBody("m", "s", nil, user("x"))))
		s.ServeHTTP(rec, hr)
		close(done)
	}()
	for len(s.Requests()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	s.Close() // idempotent
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the delay")
	}
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

func TestDroppedStream(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{{Blocks: []OutBlock{TextBlock("never sent")}, Drop: true}}})
	resp, err := http.Post(s.URL+"/v1/messages?beta=true", "application/json", strings.NewReader(messagesBody("m", "s", nil, user("x"))))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	first, err := r.ReadString('\n')
	if err != nil || first != "event: message_start\n" {
		t.Fatalf("first line %q, %v", first, err)
	}
	rest, err := io.ReadAll(r)
	if err == nil {
		t.Fatalf("the stream ended cleanly; want a broken connection (read %q)", rest)
	}
	if strings.Contains(string(rest), "never sent") || strings.Contains(string(rest), "message_stop") {
		t.Errorf("content after the drop: %q", rest)
	}
}

func TestOtherEndpointsAndRecording(t *testing.T) {
	s := Start(t)
	head, err := http.Head(s.URL + "/api/hello")
	if err != nil || head.StatusCode != 200 {
		t.Fatalf("HEAD preflight: %v %v", head, err)
	}
	resp, err := http.Post(s.URL+"/v1/messages/count_tokens", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("count_tokens: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get(s.URL + "/v2/nothing")
	if err != nil || resp.StatusCode != 404 {
		t.Fatalf("unknown path: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Post(s.URL+"/v1/messages", "application/json", strings.NewReader(`not json`))
	if err != nil || resp.StatusCode != 400 {
		t.Fatalf("bad body: %v %v", resp, err)
	}
	resp.Body.Close()
	post(t, s, messagesBody("m", "s", nil, user("x")))

	reqs := s.Requests()
	if len(reqs) != 5 {
		t.Fatalf("recorded %d requests, want 5", len(reqs))
	}
	if reqs[0].Method != http.MethodHead || reqs[0].Path != "/api/hello" || reqs[0].IsMessages() {
		t.Errorf("preflight recorded as %+v", reqs[0])
	}
	last := reqs[4]
	if !last.IsMessages() || last.Query != "beta=true" || last.Seq != 4 || last.Rule != -1 {
		t.Errorf("messages call recorded as seq %d query %q rule %d", last.Seq, last.Query, last.Rule)
	}
	if last.Header.Get("X-Api-Key") != "" || strings.Contains(string(mustJSON(t, last.Header)), "secret-key") {
		t.Error("the API key was recorded")
	}
	if last.Header.Get("Anthropic-Version") != "2023-06-01" || last.SessionID() != "sess-1" {
		t.Errorf("headers not kept: %v", last.Header)
	}
	if last.End.Before(last.Start) || last.End.IsZero() {
		t.Errorf("times %v .. %v", last.Start, last.End)
	}
	if n := len(s.Messages(nil)); n != 1 {
		t.Errorf("Messages(nil) = %d calls, want 1 (the bad body is not a Messages call)", n)
	}
	if sum := s.Summary(); strings.Count(sum, "\n") != 5 || !strings.Contains(sum, "→ default") {
		t.Errorf("summary:\n%s", sum)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
