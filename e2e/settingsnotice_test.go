package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// typoSettings is a team's settings with the Stop hook's "enabled"
// mistyped: the hooks stay off, and only the SessionStart message says so.
const typoSettings = `{"tribunal": {"stop_hook": {"enabeld": true}}}`

// TestSettingsNoticePrint: under claude -p the SessionStart hook's
// systemMessage about the typo reaches Claude Code (its hook_response
// carries it), and the next session does not repeat it.
func TestSettingsNoticePrint(t *testing.T) {
	t.Parallel()
	w := newWorld(t, typoSettings)
	turns(w)
	for i, want := range []bool{true, false} {
		res := w.claudeRun(time.Minute, "", streamArgs("--plugin-dir", w.plugin.Dir, "hello")...)
		if res.Code != 0 {
			t.Fatalf("claude exited %d\n%s", res.Code, res.Stderr)
		}
		hooks := parseStream(t, res.Stdout).hookResponses("SessionStart")
		if len(hooks) != 1 {
			t.Fatalf("run %d: want one SessionStart hook run, got %d", i+1, len(hooks))
		}
		out := str(hooks[0]["stdout"])
		got := strings.Contains(out, `"systemMessage":"tribunal: 1 problem(s) in your tribunal settings`) &&
			strings.Contains(out, `(did you mean \"enabled\"?)`)
		if got != want {
			t.Errorf("run %d: the hook said the problem: %v, want %v; its stdout: %s", i+1, got, want, out)
		}
	}
}

// TestSettingsNoticeSession: in an interactive session the user sees the
// message on the screen.
func TestSettingsNoticeSession(t *testing.T) {
	t.Parallel()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed; the interactive notice is not checked")
	}
	w := newWorld(t, typoSettings)
	turns(w)
	s := startTUI(t, w, tmux)
	s.waitScreen("problem(s) in your tribunal settings", 60*time.Second)
	s.waitScreen(`did you mean "enabled"?`, 10*time.Second)
}
