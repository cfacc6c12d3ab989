package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The probe is a second plugin, loaded next to tribunal into every claude
// process, whose SessionStart and Stop hooks append one line per run to
// $E2E_PROBE_LOG: "<event> <session id> nested=<$TRIBUNAL_NESTED>". It is
// how a test sees which sessions ran hooks at all, nested ones included,
// which the fake API cannot tell.
const probeLogEnv = "E2E_PROBE_LOG"

var probePlugin = sync.OnceValues(func() (string, error) {
	dir := filepath.Join(suiteDir, "probe")
	hook := func(event string) string {
		return fmt.Sprintf(`{"hooks":[{"type":"command","command":"echo \"%s $CLAUDE_CODE_SESSION_ID nested=${TRIBUNAL_NESTED:-}\" >> \"$%s\"","timeout":10}]}`, event, probeLogEnv)
	}
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name":"e2e-probe","version":"0.0.0","description":"records which sessions run hooks"}`,
		"hooks/hooks.json":           `{"hooks":{"SessionStart":[` + hook("SessionStart") + `],"Stop":[` + hook("Stop") + `]}}`,
	}
	for rel, content := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
})

// probeRun is one line of the probe log.
type probeRun struct {
	Event, Session, Nested string
}

// probeRuns reads the probe log; none when no hook ran.
func (w *world) probeRuns() []probeRun {
	w.t.Helper()
	data, err := os.ReadFile(w.probeLog)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	var out []probeRun
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			w.t.Fatalf("probe log line %q", line)
		}
		out = append(out, probeRun{Event: f[0], Session: f[1], Nested: strings.TrimPrefix(f[2], "nested=")})
	}
	return out
}

// onlyUserSessionsRanHooks checks that the hooks ran in the user's
// session(s) and in no other: the nested children tribunal started ran
// none (Claude Code fires a project's and plugins' hooks in a nested
// claude -p too, unless told not to).
func onlyUserSessionsRanHooks(t *testing.T, w *world, users ...string) {
	t.Helper()
	runs := w.probeRuns()
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r.Session] = true
		if !slices.Contains(users, r.Session) {
			t.Errorf("session %s (not the user's) ran its %s hook: a nested claude fired hooks; probe log %v", r.Session, r.Event, runs)
		}
	}
	for _, u := range users {
		if !seen[u] {
			t.Errorf("the user's session %s ran no hooks at all: the probe is blind; probe log %v", u, runs)
		}
	}
}
