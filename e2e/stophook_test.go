package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// stopEnabled turns the advisory judge on for the test repository.
const stopEnabled = `{"tribunal":{"stop_hook":{"enabled":true}}}`

// The user's turn: one Bash call that creates a file, then a final text.
const (
	editPrompt  = "please create greeting.txt"
	editCommand = "printf 'hello\\n' > greeting.txt"
	editDone    = "Created greeting.txt."
)

// advisoryFeedback marks the scripted Stop-hook verdict so that tests can
// follow it into the stop file, the events and the next session.
const advisoryFeedback = "greeting.txt has no tests (E2E-ADVISORY-7731)"

var advisoryVerdict = map[string]any{
	"score": 0.62, "passed": false, "judge_type": "standard",
	"feedback_summary": advisoryFeedback, "confidence": 0.8,
}

// isStopJudge recognises the Stop hook's nested judge call: our advisory
// prompt, with the StructuredOutput tool of --json-schema.
var isStopJudge = fakeapi.Match{Tool: fakeapi.StructuredOutputTool, AnyContains: "doing an advisory review of a Claude Code turn"}

// scriptUser answers the user's own conversations (Claude Code's default
// system prompt, no StructuredOutput): the edit prompt gets a Bash call and
// then editDone; any other prompt a one-line greeting. It returns the
// rule's index.
func scriptUser(api *fakeapi.Server) int {
	return api.Add(fakeapi.Rule{
		Name:  "user conversation",
		Match: fakeapi.Match{WithoutTool: fakeapi.StructuredOutputTool, SystemLacks: "# Tribunal"},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if !strings.Contains(r.AllText(), editPrompt) {
				return fakeapi.Text("Hello.")
			}
			if len(r.ToolUses()) == 0 {
				return fakeapi.Bash(editCommand)
			}
			return fakeapi.Text(editDone)
		},
	})
}

// editTurn runs the user's editing turn, checks that Claude Code's own
// result is untouched by whatever the hook did, and waits for the detached
// judge it started. It returns the session id and the parsed stream.
func (w *world) editTurn() (string, stream, run) {
	w.t.Helper()
	sid, s, res := w.editTurnNoWait()
	w.awaitJudges(2 * time.Minute)
	return sid, s, res
}

// editTurnNoWait is editTurn without waiting for the judge.
func (w *world) editTurnNoWait() (string, stream, run) {
	w.t.Helper()
	res := w.claudeRun(2*time.Minute, "", streamArgs("--allowedTools", "Bash", "--", editPrompt)...)
	if res.Code != 0 {
		w.t.Fatalf("the user's turn exited %d\nstderr:\n%s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	s := parseStream(w.t, res.Stdout)
	result := s.result(w.t)
	if result["is_error"] != false || str(result["result"]) != editDone {
		w.t.Fatalf("the user's turn result changed: is_error=%v result=%q", result["is_error"], result["result"])
	}
	sid := str(s.one(w.t, "system", "init")["session_id"])
	if sid == "" || str(result["session_id"]) != sid {
		w.t.Fatalf("session ids: init %q, result %q", sid, result["session_id"])
	}
	if got := readFile(w.t, filepath.Join(w.repo, "greeting.txt")); got != "hello\n" {
		w.t.Fatalf("greeting.txt = %q: the Bash tool call did not run", got)
	}
	return sid, s, res
}

// stopHookStderr returns what the turn's Stop hooks wrote on stderr, after
// checking that they ran once each (tribunal's and the probe's, which
// writes nothing), succeeded and printed nothing on stdout, which Claude
// Code would read as a decision.
func stopHookStderr(t *testing.T, s stream) string {
	t.Helper()
	hooks := s.hookResponses("Stop")
	if len(hooks) != 2 {
		t.Fatalf("want one run each of tribunal's and the probe's Stop hook, got %d: %v", len(hooks), hooks)
	}
	var stderr []string
	for _, h := range hooks {
		if code, _ := h["exit_code"].(float64); code != 0 || str(h["outcome"]) != "success" {
			t.Fatalf("Stop hook: exit_code %v, outcome %v, stderr %q", h["exit_code"], h["outcome"], h["stderr"])
		}
		if out := str(h["stdout"]); out != "" {
			t.Fatalf("Stop hook wrote to stdout: %q", out)
		}
		if e := str(h["stderr"]); e != "" {
			stderr = append(stderr, e)
		}
	}
	return strings.Join(stderr, "\n")
}

func TestStopHookRecordsVerdict(t *testing.T) {
	t.Parallel()
	w := newWorld(t, stopEnabled)
	w.withPluginEverywhere()
	scriptUser(w.api)
	judge := w.api.Add(fakeapi.Rule{Name: "stop judge", Match: isStopJudge, Replies: []fakeapi.Reply{fakeapi.Structured(advisoryVerdict)}})

	sid, s, _ := w.editTurn()
	if stderr := stopHookStderr(t, s); stderr != "" {
		t.Errorf("Stop hook stderr: %q", stderr)
	}
	checkAdvisoryRecorded(t, w, sid, judge)
}

// checkAdvisoryRecorded checks everything one judged turn leaves behind:
// one nested judge call with our prompt, the stop file and the six events
// under the user's real session id, and no second-level judge.
func checkAdvisoryRecorded(t *testing.T, w *world, sid string, judge int) {
	t.Helper()
	calls := w.api.ByRule(judge)
	if len(calls) != 1 {
		t.Fatalf("want one judge call, got %d; a second one means the nested session fired the hook again\n%s", len(calls), w.api.Summary())
	}
	jc := calls[0]
	if jc.SessionID() == "" || jc.SessionID() == sid {
		t.Errorf("judge call session %q: want a nested session of its own, not the user's %q", jc.SessionID(), sid)
	}
	if jc.Model() != "claude-opus-4-7" {
		t.Errorf("judge model %q, want the configured judges.model claude-opus-4-7", jc.Model())
	}
	prompt := jc.LastUserText()
	for _, want := range []string{
		"You are a Tribunal standard judge doing an advisory review",
		"A score >= 0.75 counts as passed",
		// The unified diff of the tree, the user's request read from the
		// transcript and the final message, each fenced by the token.
		"<<<BEGIN WORKING TREE DIFF ",
		"A greeting.txt  +1 -0, untracked",
		"+++ b/greeting.txt\n@@ -0,0 +1 @@\n+hello\n",
		"<<<BEGIN USER REQUEST ",
		editPrompt,
		"<<<BEGIN ASSISTANT FINAL MESSAGE ",
		editDone,
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("judge prompt lacks %q", want)
		}
	}
	if strings.Contains(prompt, `"sessionId":"`) {
		t.Error("judge prompt carries raw transcript JSONL")
	}
	if names := jc.ToolNames(); slices.Contains(names, "Bash") || slices.Contains(names, "Read") {
		t.Errorf("judge was offered tools %v; the advisory judge runs with --tools \"\"", names)
	}
	tool, _ := jc.Tool(fakeapi.StructuredOutputTool)
	if !strings.Contains(string(tool.InputSchema), `"judge_type"`) {
		t.Errorf("StructuredOutput schema is not the advisory verdict schema: %s", tool.InputSchema)
	}
	if n := len(w.api.Messages(nil)); n != 3 {
		t.Errorf("want 3 model calls (2 for the user's turn, 1 judge), got %d\n%s", n, w.api.Summary())
	}
	onlyUserSessionsRanHooks(t, w, sid)

	files := w.stopFiles()
	if len(files) != 1 || filepath.Base(files[0]) != "stop-"+sid+".json" {
		t.Fatalf("stop files %v, want one stop-%s.json", files, sid)
	}
	stop := readJSON(t, files[0])
	verdict, _ := stop["verdict"].(map[string]any)
	if stop["session_id"] != sid || stop["mode"] != "stop-advisory" || stop["outcome"] != "rejected" ||
		str(stop["fingerprint"]) == "" || verdict["score"] != 0.62 || verdict["feedback_summary"] != advisoryFeedback ||
		verdict["judge_model_id"] != "claude-opus-4-7" {
		t.Errorf("stop file content: %v", stop)
	}

	evs := w.events()
	want := []string{"tribunal.session.start", "tribunal.iteration.start", "tribunal.judge.start",
		"tribunal.verdict", "tribunal.gate.blocked", "tribunal.session.complete"}
	if got := eventTypes(evs); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for _, e := range evs {
		if e.SessionID != sid {
			t.Errorf("%s: envelope session_id %q, want the user's session %q", e.Type, e.SessionID, sid)
		}
		if p := e.payload(t); p["task_id"] != stop["task_id"] {
			t.Errorf("%s: task_id %v, stop file has %v", e.Type, p["task_id"], stop["task_id"])
		}
	}
	if v := evs[3].payload(t); v["score"] != 0.62 || v["passed"] != false || v["feedback_summary"] != advisoryFeedback {
		t.Errorf("verdict event payload: %v", v)
	}
}

func TestSessionStartSurfacesVerdictOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, stopEnabled)
	if !w.plugin.SessionStart {
		t.Skip("cmd/session-start does not exist yet: the SessionStart hook cannot be tested")
	}
	w.withPluginEverywhere()
	user := scriptUser(w.api)
	judge := w.api.Add(fakeapi.Rule{Name: "stop judge", Match: isStopJudge, Replies: []fakeapi.Reply{fakeapi.Structured(advisoryVerdict)}})

	sid, _, _ := w.editTurn()
	checkAdvisoryRecorded(t, w, sid, judge)
	// The user commits; with a clean tree the next sessions' Stop hooks
	// have nothing to judge, so the only verdict is the first one.
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "greeting")

	second := w.greetTurn(user)
	if !strings.Contains(second.request.AllText(), advisoryFeedback) {
		t.Errorf("the second session's first model call does not carry the verdict; SessionStart said %q", second.sessionStartStdout)
	}
	// The verdict reaches the model as context, not as the user's words.
	if strings.Contains(second.request.LastUserText(), advisoryFeedback) {
		t.Errorf("the verdict was put into the user's prompt")
	}
	third := w.greetTurn(user)
	if strings.Contains(third.request.AllText(), advisoryFeedback) {
		t.Errorf("the third session was shown the same verdict again")
	}
	if n := w.api.Uses(judge); n != 1 {
		t.Errorf("judge called %d times; the later sessions changed nothing", n)
	}
	onlyUserSessionsRanHooks(t, w, sid, second.request.SessionID(), third.request.SessionID())
}

// greeting is one short session of the user's.
type greeting struct {
	request            fakeapi.Request // its first model call
	sessionStartStdout string
}

// greetTurn runs a one-call session and returns its model call.
func (w *world) greetTurn(user int) greeting {
	w.t.Helper()
	before := len(w.api.ByRule(user))
	res := w.claudeRun(time.Minute, "", streamArgs("hello")...)
	if res.Code != 0 {
		w.t.Fatalf("session exited %d\nstderr:\n%s", res.Code, res.Stderr)
	}
	s := parseStream(w.t, res.Stdout)
	if r := s.result(w.t); r["result"] != "Hello." {
		w.t.Fatalf("result %v", r["result"])
	}
	var g greeting
	for _, h := range s.hookResponses("SessionStart") {
		if code, _ := h["exit_code"].(float64); code != 0 {
			w.t.Errorf("SessionStart hook exit %v: %q", h["exit_code"], h["stderr"])
		}
		g.sessionStartStdout += str(h["stdout"])
	}
	calls := w.api.ByRule(user)
	if len(calls) != before+1 {
		w.t.Fatalf("want one model call for the greeting, got %d", len(calls)-before)
	}
	g.request = calls[before]
	return g
}
