package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder is a Runner that records each command line and answers with
// a canned result.
type recorder struct {
	mu    sync.Mutex
	calls [][]string
	stdin []string
	res   Result
}

func (r *recorder) run(_ context.Context, args []string, stdin string) Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, args)
	r.stdin = append(r.stdin, stdin)
	return r.res
}

// connect serves o over in-memory transports and returns the client side.
func connect(t *testing.T, o Options) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*mcp.TextContent).Text)
	}
	return b.String(), res.IsError
}

// TestToolCommands: each tool's arguments become the command line of the
// command it names, values in --flag=value form (a value starting with
// "-" stays a value).
func TestToolCommands(t *testing.T) {
	cases := []struct {
		tool, args string
		want       string
		stdin      string
	}{
		{ToolJudge, `{}`, "review --json --worktree", ""},
		{ToolJudge, `{"task":"-h","rubric":"strict"}`, "review --json --worktree --task=-h --rubric=strict", ""},
		{ToolJudge, `{"diff":"diff --git a/x b/x\n","base":"main"}`, "review --json --diff=- --base=main", "diff --git a/x b/x\n"},
		{ToolJudge, `{"base":"main","head":"topic"}`, "review --json --base=main --head=topic", ""},
		{ToolJudge, `{"staged":true}`, "review --json --staged", ""},
		{ToolJudge, `{"candidate":"42","task":"6×7?"}`, "judge --cases=-", `{"answer":"42","id":"judge","question":"6×7?"}` + "\n"},
		{ToolVerify, `{"answer":"Paris","question":"capital?","expected":"paris","match":"icase","criteria":["name a city"],"context":["Paris is the capital."],"rubric":"strict"}`,
			"judge --cases=- --rubric=strict --match=icase --criterion=name a city",
			`{"answer":"Paris","context":["Paris is the capital."],"expected":"paris","id":"verify","question":"capital?"}` + "\n"},
		{ToolList, `{}`, "log --json", ""},
		{ToolList, `{"limit":3,"since":"7d","outcome":"rejected"}`, "log --json --limit=3 --since=7d --outcome=rejected", ""},
		{ToolShow, `{"id":"last"}`, "show --json last", ""},
		{ToolDismiss, `{"id":"01ABC","finding":2,"reason":"checked"}`, "dismiss --reason=checked 01ABC 2", ""},
		{ToolDismiss, `{"id":"01ABC","finding":"tf2:ab","reason":"x","shared":true}`, "dismiss --reason=x 01ABC tf2:ab --shared", ""},
	}
	for _, tc := range cases {
		t.Run(tc.tool+tc.args, func(t *testing.T) {
			r := &recorder{res: Result{Stdout: `{"ok": true}`}}
			cs := connect(t, Options{Run: r.run})
			out, isErr := call(t, cs, tc.tool, tc.args)
			if isErr {
				t.Fatalf("error result: %s", out)
			}
			if len(r.calls) != 1 || strings.Join(r.calls[0], " ") != tc.want || r.stdin[0] != tc.stdin {
				t.Fatalf("ran %q (stdin %q), want %q (stdin %q)", r.calls, r.stdin, tc.want, tc.stdin)
			}
		})
	}
}

// TestToolRefusals: bad input and the recursion guard are errors the
// model reads, and no command runs.
func TestToolRefusals(t *testing.T) {
	cases := []struct {
		name, tool, args string
		nested           bool
		want             string
	}{
		{"unknown argument", ToolJudge, `{"dif":"x"}`, false, `tribunal: error: judge: unknown argument "dif"`},
		{"unknown argument of show", ToolShow, `{"id":"last","json":true}`, false, `show_verdict takes id`},
		{"wrong type", ToolList, `{"limit":"3"}`, false, `validating "arguments"`},
		{"negative limit", ToolList, `{"limit":-1}`, false, `limit must be 1 or more`},
		{"missing id", ToolShow, `{}`, false, `missing properties`},
		{"flag as id", ToolShow, `{"id":"--undo"}`, false, `is not an id`},
		{"flag as finding", ToolDismiss, `{"id":"last","finding":"-x","reason":"r"}`, false, `is not an id`},
		{"fractional finding", ToolDismiss, `{"id":"last","finding":1.5,"reason":"r"}`, false, `validating "arguments"`},
		{"empty finding", ToolDismiss, `{"id":"last","finding":"","reason":"r"}`, false, `neither a number nor a fingerprint`},
		{"nested judge", ToolJudge, `{}`, true, `TRIBUNAL_NESTED is set`},
		{"nested verify", ToolVerify, `{"answer":"a","question":"q"}`, true, `TRIBUNAL_NESTED is set`},
		{"candidate and diff", ToolJudge, `{"candidate":"a","diff":"x"}`, false, `does not go with diff`},
		{"verify without question", ToolVerify, `{"answer":"a","question":" "}`, false, `question is empty`},
		{"verify without answer", ToolVerify, `{"question":"q"}`, false, `the answer is empty`},
		{"verify unknown argument", ToolVerify, `{"answer":"a","question":"q","candidate":"b"}`, false, `unknown argument "candidate"`},
		{"nested dismiss", ToolDismiss, `{"id":"last","finding":1,"reason":"r"}`, true, `TRIBUNAL_NESTED is set`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			cs := connect(t, Options{Run: r.run, Nested: tc.nested})
			out, isErr := call(t, cs, tc.tool, tc.args)
			if !isErr || !strings.Contains(out, tc.want) {
				t.Fatalf("got (error %v) %q, want an error with %q", isErr, out, tc.want)
			}
			if len(r.calls) != 0 {
				t.Fatalf("a command ran: %q", r.calls)
			}
		})
	}
	// Nested, reading is still allowed.
	r := &recorder{res: Result{Stdout: `{"entries": []}`}}
	if out, isErr := call(t, connect(t, Options{Run: r.run, Nested: true}), ToolList, `{}`); isErr {
		t.Fatalf("nested list_verdicts: %s", out)
	}
}

// TestCommandOutcomes: what a command's exit status and output make of
// the tool's result.
func TestCommandOutcomes(t *testing.T) {
	cases := []struct {
		name   string
		res    Result
		isErr  bool
		substr string
	}{
		{"accepted", Result{Stdout: `{"outcome": "accepted"}`, Code: 0}, false, `"accepted"`},
		{"rejected is a verdict, not an error", Result{Stdout: `{"outcome": "rejected"}`, Code: 10}, false, `"rejected"`},
		{"nothing to review", Result{Stderr: "tribunal: nothing to review: the work tree changes no file; no verdict written\n"}, false, "nothing to review"},
		{"no verdict", Result{Stdout: `{"outcome": "no-verdict"}`, Stderr: "tribunal: error: review X: every judge failed\n", Code: 3}, true, "every judge failed"},
		{"usage", Result{Stderr: "tribunal: error: review: --base \"x\": unknown revision\ntribunal: hint: name a branch\n", Code: 2}, true, "hint: name a branch"},
		{"silent failure", Result{Code: 2}, true, "exited 2 and said nothing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{res: tc.res}
			out, isErr := call(t, connect(t, Options{Run: r.run}), ToolJudge, `{}`)
			if isErr != tc.isErr || !strings.Contains(out, tc.substr) {
				t.Fatalf("got (error %v) %q, want error %v with %q", isErr, out, tc.isErr, tc.substr)
			}
		})
	}
}
