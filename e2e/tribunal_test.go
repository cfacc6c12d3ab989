package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// The roles of a /tribunal run, told apart by the agent prompt each child
// runs with (the actor's is appended to Claude Code's default prompt).
var roleMarkers = map[string]string{
	"actor":       "# Tribunal Actor",
	"standard":    "# Tribunal Standard Judge",
	"adversarial": "# Tribunal Adversarial Judge",
	"meta":        "# Tribunal Meta-Judge",
}

const (
	tribunalTask     = "write a greeting module"
	actorReply       = "Wrote greeting.go with a Greet function. (E2E-ACTOR)"
	adversarialFlaw  = "Empty input crashes Greet at greeting.go:12 (E2E-FLAW)"
	standardFeedback = "Clear and correct. (E2E-STANDARD)"
	tribunalFinished = "The tribunal run has finished. (E2E-DONE)"
	// The actor's edit (made with Bash in its working directory) and the
	// user's own uncommitted edit made before the run.
	actorEdit    = `echo "package greeting // E2E-ACTOR-CHANGE" >> greeting.go`
	actorChange  = "E2E-ACTOR-CHANGE"
	userReadme   = "# project\nthe user's own uncommitted edit (E2E-USER-EDIT)\n"
	userEditMark = "E2E-USER-EDIT"
	// The content of a file outside the task worktree that no judge may read.
	secretText = "TOP-SECRET-E2E-7731"
)

var (
	taskIDPattern = regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{26}\b`)
	// The skill's start command, with ${CLAUDE_PLUGIN_ROOT} already
	// substituted by Claude Code.
	skillRunCommand = regexp.MustCompile(`"([^"\n]+/bin/tribunal-session)" run --detach --task-file - <<'TRIBUNAL_TASK_EOF'`)
)

func judgeVerdict(score float64, passed bool, feedback string) fakeapi.Reply {
	return fakeapi.Structured(map[string]any{
		"score": score, "passed": passed, "confidence": 0.8, "feedback_summary": feedback,
		"criterion_scores": map[string]float64{"correctness": score, "completeness": score, "safety": 0.9, "clarity": score},
	})
}

// scriptTribunalUser plays the model of the user's conversation the way
// the /tribunal skill tells it to: start the run with the skill's own
// command, wait for it with the printed task id (again while wait exits
// 75), then finish with a line of text.
func scriptTribunalUser(t *testing.T, api *fakeapi.Server) int {
	return api.Add(fakeapi.Rule{
		Name:  "user conversation (/tribunal skill)",
		Match: fakeapi.Match{WithoutTool: fakeapi.StructuredOutputTool, SystemLacks: "# Tribunal"},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			uses := r.ToolUses()
			if len(uses) == 0 {
				m := skillRunCommand.FindStringSubmatch(r.AllText())
				if m == nil {
					t.Errorf("the /tribunal skill text with its start command did not reach the model")
					return fakeapi.Text("no skill")
				}
				return fakeapi.Bash(m[0] + "\n" + tribunalTask + "\nTRIBUNAL_TASK_EOF")
			}
			results := r.ToolResults()
			if len(results) != 1 {
				t.Errorf("want one tool result, got %d", len(results))
				return fakeapi.Text("no result")
			}
			out := results[0].Content.Text()
			bin := skillRunCommand.FindStringSubmatch(r.AllText())[1]
			id := taskIDPattern.FindString(out)
			if len(uses) == 1 || strings.HasPrefix(out, "Exit code 75") {
				if id == "" {
					t.Errorf("no task id in the output of the start command: %q", out)
					return fakeapi.Text("no task id")
				}
				return fakeapi.ToolUse("", "Bash", map[string]any{
					"command":     fmt.Sprintf("%q wait %s --timeout 9m", bin, id),
					"description": "follow the tribunal run",
					"timeout":     600000,
				})
			}
			return fakeapi.Text(tribunalFinished)
		},
	})
}

// scriptRoles answers the nested actor, judge and meta-judge calls. The
// adversarial judge gives the given replies in turn. Both judges wait for
// each other before answering, so a jury that is not run in parallel
// shows as calls that do not overlap. With a secret path, each meta-judge
// first tries to Read it (a file outside the task worktree) and answers
// once it has the tool's result.
func scriptRoles(api *fakeapi.Server, userTreeUntouched func(), secret string, adversarial ...fakeapi.Reply) map[string]int {
	rules := map[string]int{}
	// The actor edits a file with Bash in its working directory (the task
	// worktree), then reports.
	rules["actor"] = api.Add(fakeapi.Rule{Name: "actor", Match: fakeapi.Match{SystemContains: roleMarkers["actor"]},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if len(r.ToolResults()) == 0 {
				return fakeapi.Bash(actorEdit)
			}
			return fakeapi.Text(actorReply)
		}})
	isJudge := func(r *fakeapi.Request) bool {
		s := r.SystemText()
		return strings.Contains(s, roleMarkers["standard"]) || strings.Contains(s, roleMarkers["adversarial"])
	}
	together := func(reply func(n int) fakeapi.Reply) func(*fakeapi.Request) fakeapi.Reply {
		return func(r *fakeapi.Request) fakeapi.Reply {
			// While the task runs, the user's working tree is as they left it.
			userTreeUntouched()
			// The k-th judge call (0-based) belongs to jury k/2.
			k := len(api.Messages(func(x *fakeapi.Request) bool { return isJudge(x) && x.Seq < r.Seq }))
			want := 2 * (k/2 + 1)
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if len(api.Messages(func(x *fakeapi.Request) bool { return isJudge(x) })) >= want {
					break
				}
			}
			return reply(k / 2)
		}
	}
	rules["standard"] = api.Add(fakeapi.Rule{Name: "standard judge", Match: fakeapi.Match{SystemContains: roleMarkers["standard"]},
		Respond: together(func(int) fakeapi.Reply { return judgeVerdict(0.9, true, standardFeedback) })})
	rules["adversarial"] = api.Add(fakeapi.Rule{Name: "adversarial judge", Match: fakeapi.Match{SystemContains: roleMarkers["adversarial"]},
		Respond: together(func(n int) fakeapi.Reply { return adversarial[min(n, len(adversarial)-1)] })})
	rules["meta"] = api.Add(fakeapi.Rule{Name: "meta-judge", Match: fakeapi.Match{SystemContains: roleMarkers["meta"]},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if secret != "" && len(r.ToolResults()) == 0 {
				return fakeapi.ToolUse("", "Read", map[string]any{"file_path": secret})
			}
			return fakeapi.Structured(map[string]any{"verdict_quality": "sound", "bias_detected": false, "confidence": 0.7})
		}})
	return rules
}

func TestTribunalSkill(t *testing.T) {
	t.Parallel()
	fail := judgeVerdict(0.4, false, adversarialFlaw)
	pass := judgeVerdict(0.86, true, "Empty input is handled now.")
	cases := []struct {
		name        string
		adversarial []fakeapi.Reply
		outcome     string
		waitResult  string // in the output of the wait command
		gates       []string
	}{
		{"accepted after a retry", []fakeapi.Reply{fail, pass}, "accepted", "✓ accepted",
			[]string{"tribunal.gate.blocked", "tribunal.gate.passed"}},
		{"iterations exhausted", []fakeapi.Reply{fail}, "exhausted_iterations", "Exit code 10",
			[]string{"tribunal.gate.blocked", "tribunal.gate.blocked"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, `{"tribunal":{"session":{"max_iterations":2}}}`)
			w.withPluginEverywhere()
			// The user's own uncommitted work, which the task must leave
			// alone until it is accepted.
			w.writeFile("README.md", userReadme)
			w.writeFile("notes.txt", "untracked notes\n")
			userTreeUntouched := func() {
				if _, err := os.Stat(filepath.Join(w.repo, "greeting.go")); err == nil {
					t.Errorf("the actor's change reached the user's working tree while the task was running")
				}
				if got := readFile(t, filepath.Join(w.repo, "README.md")); got != userReadme {
					t.Errorf("the user's README changed while the task was running: %q", got)
				}
			}
			user := scriptTribunalUser(t, w.api)
			secret := filepath.Join(t.TempDir(), "secret.txt")
			if err := os.WriteFile(secret, []byte(secretText+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			roles := scriptRoles(w.api, userTreeUntouched, secret, tc.adversarial...)

			res := w.claudeRun(3*time.Minute, "", streamArgs("/tribunal "+tribunalTask)...)
			if res.Code != 0 {
				t.Fatalf("claude exited %d\nstderr:\n%s\ntimeline:\n%s", res.Code, res.Stderr, res.timeline())
			}
			s := parseStream(t, res.Stdout)
			result := s.result(t)
			if result["is_error"] != false || result["result"] != tribunalFinished {
				t.Fatalf("result: is_error=%v result=%q", result["is_error"], result["result"])
			}
			if d, _ := result["permission_denials"].([]any); len(d) != 0 {
				t.Errorf("the skill's commands were denied: %v", d)
			}
			sid := str(result["session_id"])

			// The user's conversation: start, wait, final text.
			conv := w.api.ByRule(user)
			if len(conv) != 3 {
				t.Fatalf("want 3 model calls in the user's conversation, got %d\n%s", len(conv), w.api.Summary())
			}
			started := conv[1].ToolResults()[0].Content.Text()
			taskID := taskIDPattern.FindString(started)
			if waited := conv[2].ToolResults()[0].Content.Text(); !strings.Contains(waited, tc.waitResult) {
				t.Errorf("wait printed no %q:\n%s", tc.waitResult, waited)
			}

			checkTribunalCalls(t, w, roles, sid, len(tc.adversarial) > 1)
			if unmatched := w.api.ByRule(-1); len(unmatched) != 0 {
				t.Errorf("%d model call(s) matched no role\n%s", len(unmatched), w.api.Summary())
			}
			checkTribunalRecords(t, w, taskID, sid, tc.outcome, tc.gates)
			checkUserTree(t, w, taskID, tc.outcome == "accepted")
			onlyUserSessionsRanHooks(t, w, sid)
		})
	}
}

// checkTribunalCalls checks the nested calls: two iterations of one actor,
// two judges in parallel and one meta-judge, in that order, each its own
// session with its own prompt, model and tools.
func checkTribunalCalls(t *testing.T, w *world, roles map[string]int, sid string, retried bool) {
	t.Helper()
	calls := map[string][]fakeapi.Request{}
	for role, rule := range roles {
		calls[role] = w.api.ByRule(rule)
		if role == "actor" || role == "meta" {
			// One actor and one meta-judge session per iteration: its
			// first request (the second carries the Bash or Read result).
			calls[role] = slices.DeleteFunc(calls[role], func(r fakeapi.Request) bool { return len(r.ToolResults()) > 0 })
		}
		if len(calls[role]) != 2 {
			t.Fatalf("want 1 %s call per iteration (2 in all), got %d\n%s", role, len(calls[role]), w.api.Summary())
		}
	}
	models := map[string]string{"actor": "claude-sonnet-4-6", "standard": "claude-opus-4-7", "adversarial": "claude-opus-4-7", "meta": "claude-opus-4-7"}
	for role, cs := range calls {
		for _, c := range cs {
			if c.Model() != models[role] {
				t.Errorf("%s model %q, want %q", role, c.Model(), models[role])
			}
			if c.SessionID() == "" || c.SessionID() == sid {
				t.Errorf("%s call in session %q: want a nested session, not the user's %q", role, c.SessionID(), sid)
			}
		}
	}
	for i := range 2 {
		actor, std, adv, meta := calls["actor"][i], calls["standard"][i], calls["adversarial"][i], calls["meta"][i]
		first, last := std, adv
		if adv.Start.Before(std.Start) {
			first, last = adv, std
		}
		switch {
		case !actor.End.Before(first.Start):
			t.Errorf("iteration %d: a judge started before the actor finished", i)
		case !last.Start.Before(first.End):
			t.Errorf("iteration %d: the judges did not run in parallel", i)
		case meta.Start.Before(std.End) || meta.Start.Before(adv.End):
			t.Errorf("iteration %d: the meta-judge started before the jury finished", i)
		case i == 0 && calls["actor"][1].Start.Before(meta.End):
			t.Errorf("the second actor started before the first meta-judge finished")
		}
		for _, j := range []fakeapi.Request{std, adv} {
			prompt := j.LastUserText()
			for _, want := range []string{"# Tribunal jury assignment", tribunalTask, actorReply, "correctness", "+package greeting // " + actorChange} {
				if !strings.Contains(prompt, want) {
					t.Errorf("iteration %d: judge prompt lacks %q", i, want)
				}
			}
			// The diff is the actor's change alone: not the user's own
			// earlier edits, nor their untracked files.
			if strings.Contains(prompt, userEditMark) || strings.Contains(prompt, "notes.txt") {
				t.Errorf("iteration %d: the judge prompt shows the user's own edits as the actor's work", i)
			}
			tool, ok := j.Tool(fakeapi.StructuredOutputTool)
			if !ok || !strings.Contains(string(tool.InputSchema), `"criterion_scores"`) {
				t.Errorf("iteration %d: judge not offered StructuredOutput with the verdict schema: %v", i, j.ToolNames())
			}
		}
		// --append-system-prompt keeps Claude Code's own coding prompt.
		if !strings.Contains(actor.SystemText(), "You are an agent working with the user toward their goals") {
			t.Errorf("the actor's prompt should be appended to Claude Code's own system prompt")
		}
		if !strings.Contains(meta.LastUserText(), standardFeedback) {
			t.Errorf("iteration %d: the meta-judge was not shown the jury's verdicts", i)
		}
	}
	// The meta-judge's Read of a file outside the task worktree: refused
	// by the CLI, because tribunal does not pre-approve the read tools.
	reads := slices.DeleteFunc(w.api.ByRule(roles["meta"]), func(r fakeapi.Request) bool { return len(r.ToolResults()) == 0 })
	if len(reads) != 2 {
		t.Errorf("want one Read result per meta-judge session, got %d requests carrying tool results", len(reads))
	}
	for _, r := range reads {
		res := r.ToolResults()[0]
		if strings.Contains(res.Content.Text(), secretText) {
			t.Errorf("the meta-judge read a file outside the task worktree: %+v", res)
		} else if !res.IsError && !strings.Contains(res.Content.Text(), "permission") {
			t.Errorf("the meta-judge's Read outside the worktree was neither an error nor a permission refusal: %+v", res)
		}
	}
	if tools := calls["standard"][0].ToolNames(); slices.Contains(tools, "Bash") || slices.Contains(tools, "Write") {
		t.Errorf("the standard judge is read-only, but was offered %v", tools)
	}
	// The adversarial judge may run tests, in Claude Code's sandbox: it is
	// offered Bash exactly where the sandbox can run (docs/security.md §2.4).
	sandbox := claude.CheckSandbox(runtime.GOOS, os.Getenv("PATH"), func(p string) bool { _, err := os.Stat(p); return err == nil })
	if tools := calls["adversarial"][0].ToolNames(); slices.Contains(tools, "Bash") != sandbox.OK {
		t.Errorf("sandbox available %v, but the adversarial judge was offered %v", sandbox.OK, tools)
	}
	if retried && !strings.Contains(calls["actor"][1].LastUserText(), adversarialFlaw) {
		t.Errorf("the second actor was not given the jury's critique")
	}
	if strings.Contains(calls["actor"][0].LastUserText(), adversarialFlaw) {
		t.Errorf("the first actor saw a critique before any judge ran")
	}
}

// checkTribunalRecords checks the task's artifacts and its events.
func checkTribunalRecords(t *testing.T, w *world, taskID, sid, outcome string, gates []string) {
	t.Helper()
	if taskID == "" {
		t.Fatal("the start command printed no task id")
	}
	project := w.projectDir()
	if project == "" {
		t.Fatalf("no project directory under %s", w.onlooker)
	}
	taskDir := filepath.Join(project, taskID)
	complete := readJSON(t, filepath.Join(taskDir, "session-complete.json"))
	if complete["outcome"] != outcome {
		t.Errorf("session-complete.json outcome %v, want %s", complete["outcome"], outcome)
	}
	iterations, _ := filepath.Glob(filepath.Join(taskDir, "iteration-*"))
	if len(iterations) != 2 {
		t.Fatalf("want 2 iteration directories, got %v", iterations)
	}
	for _, it := range iterations {
		for _, f := range []string{"actor.md", "jury.json", "meta.json", "gate.json"} {
			if _, err := os.Stat(filepath.Join(it, f)); err != nil {
				t.Errorf("%s: %v", filepath.Base(it), err)
			}
		}
		if v, _ := filepath.Glob(filepath.Join(it, "verdicts", "*.json")); len(v) != 2 {
			t.Errorf("%s: want 2 verdict files, got %d", filepath.Base(it), len(v))
		}
	}
	if got := readFile(t, filepath.Join(iterations[0], "actor.md")); !strings.Contains(got, actorReply) {
		t.Errorf("actor.md does not hold the actor's message: %q", got)
	}

	evs := w.events()
	if len(evs) == 0 {
		t.Fatal("no events")
	}
	types := eventTypes(evs)
	if types[0] != "tribunal.session.start" || types[len(types)-1] != "tribunal.session.complete" {
		t.Errorf("events run from %s to %s", types[0], types[len(types)-1])
	}
	var gotGates []string
	verdicts := 0
	for _, e := range evs {
		if e.SessionID != sid {
			t.Errorf("%s: envelope session_id %q, want the user's session %q", e.Type, e.SessionID, sid)
		}
		p := e.payload(t)
		if p["task_id"] != taskID {
			t.Errorf("%s: task_id %v, want %s", e.Type, p["task_id"], taskID)
		}
		switch e.Type {
		case "tribunal.gate.passed", "tribunal.gate.blocked":
			gotGates = append(gotGates, e.Type)
		case "tribunal.verdict":
			verdicts++
		case "tribunal.session.complete":
			if p["outcome"] != outcome || p["iterations_used"] != 2.0 {
				t.Errorf("session.complete: %v", p)
			}
		}
	}
	if !slices.Equal(gotGates, gates) || verdicts != 4 {
		t.Errorf("gates %v and %d verdicts, want %v and 4", gotGates, verdicts, gates)
	}
}

// checkUserTree checks the user's working tree after the run: an accepted
// change is there as uncommitted changes beside the user's own edit;
// otherwise the tree is exactly as the user left it and the change is kept
// on the task's ref (refs/tribunal/tasks/<id>).
func checkUserTree(t *testing.T, w *world, taskID string, accepted bool) {
	t.Helper()
	if got := readFile(t, filepath.Join(w.repo, "README.md")); got != userReadme {
		t.Errorf("the user's own edit was lost: README.md is %q", got)
	}
	status := w.git("status", "--porcelain")
	greeting := filepath.Join(w.repo, "greeting.go")
	// Task changes live under refs/tribunal/tasks/, never under refs/heads
	// where `git push --all` would publish them.
	branches := w.git("for-each-ref", "--format=%(refname)", "refs/tribunal/tasks/", "refs/heads/tribunal/")
	if accepted {
		if got := readFile(t, greeting); strings.Count(got, actorChange) != 2 {
			t.Errorf("the accepted change (two iterations' edits) is not in the user's tree: %q", got)
		}
		if !strings.Contains(status, "?? greeting.go") || !strings.Contains(status, " M README.md") {
			t.Errorf("want greeting.go untracked and README.md modified, unstaged:\n%s", status)
		}
		if branches != "" {
			t.Errorf("an applied task left its branch: %s", branches)
		}
	} else {
		if _, err := os.Stat(greeting); err == nil {
			t.Errorf("a change that was not accepted reached the user's tree")
		}
		if strings.TrimSpace(branches) != "refs/tribunal/tasks/"+taskID {
			t.Errorf("the rejected change is not kept on refs/tribunal/tasks/%s alone: %q", taskID, branches)
		}
	}
	// The task's worktree stays only as a member of the warm pool
	// (session.worktree_pool), for the next task to reuse.
	out := w.git("worktree", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines[1:] {
		if !strings.Contains(l, "/worktrees/pool/") {
			t.Errorf("a task worktree was left behind outside the pool:\n%s", out)
		}
	}
	if len(lines) > 2 {
		t.Errorf("one task left %d worktrees:\n%s", len(lines)-1, out)
	}
}
