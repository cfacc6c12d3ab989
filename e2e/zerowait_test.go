package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// slowJudge is how long the scripted judge takes to answer: longer than a
// whole turn may take when the judge runs detached.
const slowJudge = 15 * time.Second

// TestAdvisoryJudgeDoesNotMakeTheUserWait: with a judge that takes 15 s,
// the user's `claude -p` turn still ends in a few seconds; the verdict
// lands afterwards, and the session's next prompt shows it, once, to the
// user (systemMessage) and to the model (additionalContext).
func TestAdvisoryJudgeDoesNotMakeTheUserWait(t *testing.T) {
	t.Parallel()
	w := newWorld(t, stopEnabled)
	w.withPluginEverywhere()
	user := scriptUser(w.api)
	slow := fakeapi.Structured(advisoryVerdict)
	slow.Delay = slowJudge
	judge := w.api.Add(fakeapi.Rule{Name: "slow stop judge", Match: isStopJudge, Replies: []fakeapi.Reply{slow}})

	sid, s, turn := w.editTurnNoWait()
	if stderr := stopHookStderr(t, s); stderr != "" {
		t.Errorf("Stop hook stderr: %q", stderr)
	}
	// Startup, two model calls and a Bash call take a few seconds; the
	// judge alone takes 15.
	if turn.Took >= slowJudge {
		t.Fatalf("the turn took %s: it waited for the %s judge", turn.Took, slowJudge)
	}
	if files := w.stopFiles(); len(files) != 0 {
		t.Fatalf("a verdict exists before its judge could have answered: %v", files)
	}
	if !w.judgesBusy() {
		t.Fatal("no judge is running after the turn ended")
	}
	// The judge outlives the claude process that fired the hook.
	w.awaitJudges(2 * time.Minute)
	checkAdvisoryRecorded(t, w, sid, judge)

	// The same session's next prompt: the verdict, once.
	next := w.claudeRun(time.Minute, "", streamArgs("--resume", sid, "hello")...)
	if next.Code != 0 {
		t.Fatalf("the next prompt exited %d\n%s", next.Code, next.Stderr)
	}
	ns := parseStream(t, next.Stdout)
	var shown string
	for _, h := range ns.hookResponses("UserPromptSubmit") {
		shown += str(h["stdout"])
	}
	if !strings.Contains(shown, `"systemMessage":"tribunal: advisory verdict on the last turn's changes: FAIL, score 0.62; the judge wrote:\n> `+advisoryFeedback+`"`) {
		t.Errorf("UserPromptSubmit did not show the user the verdict with the judge's words quoted: %q", shown)
	}
	calls := w.api.ByRule(user)
	req := calls[len(calls)-1]
	if !strings.Contains(req.AllText(), "UserPromptSubmit hook additional context") || !strings.Contains(req.AllText(), advisoryFeedback) {
		t.Errorf("the model's next call does not carry the verdict as context")
	}
	again := w.claudeRun(time.Minute, "", streamArgs("--resume", sid, "hello again")...)
	as := parseStream(t, again.Stdout)
	for _, h := range as.hookResponses("UserPromptSubmit") {
		if out := str(h["stdout"]); out != "" {
			t.Errorf("the verdict was shown twice: %q", out)
		}
	}
	// A new session does not get it again at its start either.
	fresh := w.claudeRun(time.Minute, "", streamArgs("hello")...)
	for _, h := range parseStream(t, fresh.Stdout).hookResponses("SessionStart") {
		if strings.Contains(str(h["stdout"]), advisoryFeedback) {
			t.Errorf("SessionStart showed a verdict the session's prompt already showed")
		}
	}
}

// fixEnabled turns fix mode on.
const fixEnabled = `{"tribunal":{"stop_hook":{"enabled":true,"mode":"fix"}}}`

// TestFixModeHandsAFailingVerdictBack: in fix mode a failing verdict
// reaches the model as Stop hook feedback and the turn continues once; the
// continued turn's Stop does not judge again.
func TestFixModeHandsAFailingVerdictBack(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fixEnabled)
	w.withPluginEverywhere()
	user := scriptUser(w.api)
	judge := w.api.Add(fakeapi.Rule{Name: "stop judge", Match: isStopJudge, Replies: []fakeapi.Reply{fakeapi.Structured(advisoryVerdict)}})

	res := w.claudeRun(3*time.Minute, "", streamArgs("--allowedTools", "Bash", "--", editPrompt)...)
	if res.Code != 0 {
		t.Fatalf("the turn exited %d\n%s", res.Code, res.Stderr)
	}
	s := parseStream(t, res.Stdout)
	if r := s.result(t); str(r["result"]) != editDone {
		t.Errorf("result %q", r["result"])
	}
	calls := w.api.ByRule(user)
	if len(calls) != 3 {
		t.Fatalf("want 3 model calls of the user's session (Bash, done, the rewoken turn), got %d\n%s", len(calls), w.api.Summary())
	}
	fed := calls[2].AllText()
	if !strings.Contains(fed, "Stop hook feedback") || !strings.Contains(fed, advisoryFeedback) ||
		!strings.Contains(fed, "tribunal's judge scored this turn's changes 0.62") {
		t.Errorf("the continued turn's model call does not carry the critique as Stop hook feedback")
	}
	if n := w.api.Uses(judge); n != 1 {
		t.Errorf("judge called %d times; the continued turn must not be judged again", n)
	}
	recs := w.judgements()
	if len(recs) != 1 || recs[0]["rewake"] != true || recs[0]["outcome"] != "rejected" {
		t.Errorf("judgement records %v: want one rejected verdict handed back", recs)
	}
	ledger := readFile(t, filepath.Join(w.projectDir(), "ledger.jsonl"))
	if strings.Count(ledger, `"kind":"rewake"`) != 1 {
		t.Errorf("the ledger does not record the rewake once:\n%s", ledger)
	}
	if _, err := os.Stat(filepath.Join(w.onlooker, "tribunal-pending")); err == nil {
		if p, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal-pending", "*.json")); len(p) != 0 {
			t.Errorf("a verdict the model already has waits to be shown again: %v", p)
		}
	}
}

// TestFixModeNeverRewakesOnAJudgeError: a judge API error ends the turn
// normally, whatever the mode.
func TestFixModeNeverRewakesOnAJudgeError(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fixEnabled)
	w.withPluginEverywhere()
	user := scriptUser(w.api)
	w.api.Add(fakeapi.Rule{Name: "failing judge", Match: isStopJudge, Replies: []fakeapi.Reply{fakeapi.Error(500, "api_error", "E2E judge outage")}})

	res := w.claudeRun(3*time.Minute, "", streamArgs("--allowedTools", "Bash", "--", editPrompt)...)
	if res.Code != 0 {
		t.Fatalf("the turn exited %d\n%s", res.Code, res.Stderr)
	}
	if r := parseStream(t, res.Stdout).result(t); str(r["result"]) != editDone {
		t.Errorf("result %q", r["result"])
	}
	if n := len(w.api.ByRule(user)); n != 2 {
		t.Errorf("want the user's 2 model calls and no rewake, got %d\n%s", n, w.api.Summary())
	}
	recs := w.judgements()
	if len(recs) != 1 || recs[0]["outcome"] != "failed" || !strings.Contains(str(recs[0]["error"]), "E2E judge outage") {
		t.Errorf("judgement records %v: want one failed judge call with its reason", recs)
	}
}
