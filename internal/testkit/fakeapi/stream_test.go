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
	"testing"
	"time"
)

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

func TestToolUseIDsAreUnique(t *testing.T) {
	s := Start(t)
	s.Add(Rule{Replies: []Reply{{Blocks: []OutBlock{ToolUseBlock("A", map[string]int{}), ToolUseBlock("B", map[string]int{})}}}})
	seen := map[string]bool{}
	for range 2 {
		_, body := post(t, s, messagesBody("m", "s", nil, user("x")))
		for _, e := range parseSSE(t, body) {
			if cb, ok := e.Data["content_block"].(map[string]any); ok {
				id := cb["id"].(string)
				if seen[id] {
					t.Errorf("tool_use id %q repeated", id)
				}
				seen[id] = true
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("want 4 ids, got %v", seen)
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
		{"text then a tool call", ToolUse("let me look", "Read", map[string]string{"file_path": "x"}), "tool_use"},
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
	if err := json.Unmarshal([]byte(evs[2].Data["delta"].(map[string]any)["partial_json"].(string)), &input); err != nil {
		t.Fatal(err)
	}
	if input["score"] != 0.5 || input["passed"] != false {
		t.Errorf("structured input %v", input)
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
		if resp.StatusCode != want.status || resp.Header.Get("Content-Type") != "application/json" ||
			e.Type != "error" || e.Error.Type != want.typ || e.Error.Message != want.message {
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
	// The client gives up only once the server holds the request: a fixed
	// client timeout raced the handler on a loaded machine (the request was
	// not yet recorded when the test looked at it).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hr, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/messages", strings.NewReader(messagesBody("m", "s", nil, user("x"))))
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(hr)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	waitUntil(t, "the server records the request", func() bool { return len(s.Requests()) == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("want the client's cancellation, got %v", err)
	}
	waitUntil(t, "the handler ends after the client left", func() bool { return !s.Requests()[0].End.IsZero() })
}

// waitUntil polls cond with a generous deadline, so a loaded machine slows
// the test down instead of failing it.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
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
	waitUntil(t, "the server records the request", func() bool { return len(s.Requests()) == 1 })
	s.Close()
	s.Close() // idempotent
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the delay")
	}
}

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
	if s.Requests()[0].End.IsZero() {
		t.Error("a dropped stream has no end time")
	}
}
