package fakeapi

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

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
	if none.LastUserText() != "" || none.ToolUses() != nil || none.HasTool("Bash") || none.Model() != "" || none.AllText() != "" {
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
		{`[{"type":"tool_result","content":"out"}]`, "out"},
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
	counter := s.Add(Rule{Name: "counter only"})
	if got := replyText(t, s, messagesBody("m", "s", nil, user("x"))); got != "the default" {
		t.Errorf("reply %q", got)
	}
	if s.Uses(counter) != 1 {
		t.Errorf("uses %d", s.Uses(counter))
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
