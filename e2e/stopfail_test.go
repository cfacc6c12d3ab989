package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// TestStopHookJudgeFailures: whatever goes wrong with the nested judge, the
// user's own turn ends normally, nothing is recorded as a verdict, and the
// session's history keeps the failed judge call with the reason.
func TestStopHookJudgeFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		reply fakeapi.Reply
		// the failure's recorded reason must contain every one of these.
		stderr []string
		// calls is how many model calls the judge's CLI makes before it
		// gives up (it retries some failures on its own).
		calls int
		// deadline is tribunal.stop_hook.timeout_seconds: shorter where the
		// judge hangs, so that the case is quick, and generous elsewhere,
		// so that a slow machine cannot turn an API error into a timeout.
		deadline int
	}{
		{
			name:     "api error",
			reply:    fakeapi.Error(500, "api_error", "E2E judge outage"),
			stderr:   []string{"api_error", "500", "E2E judge outage"},
			calls:    1,
			deadline: 30,
		},
		{
			name:     "overloaded",
			reply:    fakeapi.Error(529, "overloaded_error", "E2E overloaded"),
			stderr:   []string{"529", "E2E overloaded"},
			calls:    1,
			deadline: 30,
		},
		{
			// The deadline must leave the judge's CLI time to start and
			// reach the API on a loaded 2-CPU runner under -race (CI saw
			// it still starting at 4 s), so that the kill is for the hang.
			name:     "hang past the deadline",
			reply:    fakeapi.Reply{Delay: 10 * time.Minute},
			stderr:   []string{"did not finish within 15s and was killed"},
			calls:    1,
			deadline: 15,
		},
		{
			name:   "no structured output",
			reply:  fakeapi.Text("Looks fine to me."),
			stderr: []string{"no structured output"},
			// The CLI nudges a judge that answered in text once.
			calls:    2,
			deadline: 30,
		},
		{
			name:   "invalid verdict",
			reply:  fakeapi.Structured(map[string]any{"score": 0.5, "passed": "maybe", "judge_type": "standard", "feedback_summary": "x", "confidence": 0.5}),
			stderr: []string{"max_turns"},
			// The CLI rejects input that fails the schema and asks again;
			// the same answer again ends the run at --max-turns 2.
			calls:    2,
			deadline: 30,
		},
		{
			name:   "dropped stream",
			reply:  fakeapi.Reply{Drop: true},
			stderr: []string{"api_error", "ECONNRESET"},
			// A stream cut off mid-message is retried once even with
			// CLAUDE_CODE_MAX_RETRIES=0.
			calls:    2,
			deadline: 30,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, fmt.Sprintf(`{"tribunal":{"stop_hook":{"enabled":true,"timeout_seconds":%d}}}`, tc.deadline))
			w.withPluginEverywhere()
			scriptUser(w.api)
			judge := w.api.Add(fakeapi.Rule{Name: "failing judge", Match: isStopJudge, Replies: []fakeapi.Reply{tc.reply}})

			start := time.Now()
			_, s, last := w.editTurnNoWait()
			took := time.Since(start)
			w.awaitJudges(2 * time.Minute)
			if stderr := stopHookStderr(t, s); stderr != "" {
				t.Errorf("Stop hook stderr: %q; the detached judge's failure belongs in the history", stderr)
			}
			recs := w.judgements()
			if len(recs) != 1 || recs[0]["outcome"] != "failed" {
				t.Fatalf("want one failed judgement recorded, got %v", recs)
			}
			reason := str(recs[0]["error"])
			t.Logf("recorded reason: %s", reason)
			for _, want := range tc.stderr {
				if !strings.Contains(reason, want) {
					t.Errorf("the recorded reason lacks %q:\n%s", want, reason)
				}
			}
			if calls := w.api.ByRule(judge); len(calls) != tc.calls {
				t.Errorf("want %d judge call(s), got %d\n%s", tc.calls, len(calls), w.api.Summary())
			}
			if files := w.stopFiles(); len(files) != 0 {
				t.Errorf("a failed judge left stop files: %v", files)
			}
			if evs := w.events(); len(evs) != 0 {
				t.Errorf("a failed judge left events: %v", eventTypes(evs))
			}
			// A failed judge must not hold up the user: the turn (startup
			// and two model calls) ends without waiting for it.
			if took > 20*time.Second {
				t.Errorf("the turn took %s", took)
			}
			if t.Failed() {
				t.Logf("timeline of the turn:\n%s", last.timeline())
			}
		})
	}
}
