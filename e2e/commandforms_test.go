package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// The bodies of the plugin's log command and /tribunal skill: a request
// whose last user message holds one of them is that command expanded.
const (
	logBody   = "Show the user tribunal's records for this project"
	skillBody = "Run the user's task through tribunal"
)

// turns answers every request with "ok" and sends the text of its last
// user message to the returned channel, so a test can wait for the
// request a typed command produced.
func turns(w *world) <-chan string {
	ch := make(chan string, 64)
	w.api.Add(fakeapi.Rule{Name: "any turn", Respond: func(r *fakeapi.Request) fakeapi.Reply {
		select {
		case ch <- r.LastUserText():
		default:
		}
		return fakeapi.Text("ok")
	}})
	return ch
}

// TestCommandFormsPrint pins which forms of the plugin's commands expand
// under `claude -p`: the log command only with its plugin prefix (the
// bare form reaches the model as the typed text), the /tribunal skill in
// both forms. docs' TestCommandFormsWork keeps every text naming the
// working form.
func TestCommandFormsPrint(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	seen := turns(w)
	for _, c := range []struct {
		typed, body string
		expands     bool
	}{
		{"/tribunal:tribunal-log last", logBody, true},
		{"/tribunal-log last", logBody, false},
		{"/tribunal add a flag", skillBody, true},
		{"/tribunal:tribunal add a flag", skillBody, true},
	} {
		res := w.claudeRun(time.Minute, "", "-p", "--plugin-dir", w.plugin.Dir, c.typed)
		if res.Code != 0 {
			t.Fatalf("claude -p %q exited %d\n%s", c.typed, res.Code, res.Stderr)
		}
		var texts []string
		for len(seen) > 0 {
			texts = append(texts, <-seen)
		}
		got := strings.Contains(strings.Join(texts, "\n"), c.body)
		if got != c.expands {
			t.Errorf("claude -p %q: body expanded %v, want %v; the model got %q", c.typed, got, c.expands, texts)
		}
	}
}

// TestCommandFormsSession types the same commands into an interactive
// session (the TUI in tmux, against the fake API): the prefixed log
// command and both forms of /tribunal expand, the bare log command is
// "Unknown command". Every wait is on the screen or on a request, with a
// deadline.
func TestCommandFormsSession(t *testing.T) {
	t.Parallel()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed; the interactive forms are not checked")
	}
	w := newWorld(t, "")
	seen := turns(w)
	s := startTUI(t, w, tmux)
	s.waitScreen("❯", 60*time.Second)
	for _, c := range []struct{ typed, body string }{
		{"/tribunal:tribunal-log last", logBody},
		{"/tribunal add a flag", skillBody},
		{"/tribunal:tribunal add a flag", skillBody},
	} {
		s.typeLine(c.typed)
		s.waitRequest(seen, c.body, 60*time.Second)
	}
	s.typeLine("/tribunal-log last")
	s.waitScreen("Unknown command: /tribunal-log", 30*time.Second)
}

// tui is an interactive claude in a tmux session of its own server.
type tui struct {
	t            *testing.T
	tmux, socket string
}

// startTUI starts claude with the plugin in a fresh tmux server whose
// HOME has finished onboarding, trusts the repository and approves the
// fake API key, so the session opens straight at its prompt.
func startTUI(t *testing.T, w *world, tmux string) *tui {
	t.Helper()
	key := "dummy-e2e-key"
	state := map[string]any{
		"hasCompletedOnboarding": true,
		"theme":                  "dark",
		"customApiKeyResponses":  map[string]any{"approved": []string{key[max(0, len(key)-20):]}, "rejected": []string{}},
		"projects":               map[string]any{w.repo: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	}
	data, _ := json.Marshal(state)
	if err := os.WriteFile(filepath.Join(w.home, ".claude.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("#!/bin/sh\ncd " + shellQuote(w.repo) + " || exit 1\nexec env -i")
	for _, kv := range w.environ() {
		script.WriteString(" " + shellQuote(kv))
	}
	script.WriteString(" TERM=xterm-256color " + shellQuote(w.claude) + " --plugin-dir " + shellQuote(w.plugin.Dir) + "\n")
	path := filepath.Join(t.TempDir(), "tui.sh")
	if err := os.WriteFile(path, []byte(script.String()), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &tui{t: t, tmux: tmux, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	s.run("-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "160", "-y", "45", path)
	pid, err := strconv.Atoi(strings.TrimSpace(s.run("display-message", "-p", "-t", "e2e", "#{pane_pid}")))
	if err != nil {
		t.Fatalf("the pane's pid: %v", err)
	}
	// The pane is a session of its own: kill all of it (the CLI's children
	// too, which may still be writing into HOME) and wait until it is gone,
	// before the test's directories are removed.
	t.Cleanup(func() {
		syscall.Kill(-pid, syscall.SIGKILL)
		exec.Command(tmux, "-S", s.socket, "kill-server").Run()
		deadline := time.Now().Add(10 * time.Second)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for sessionAlive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("processes of the session %d outlived it by 10 s", pid)
				return
			}
			syscall.Kill(-pid, syscall.SIGKILL)
			<-tick.C
		}
	})
	return s
}

// sessionAlive reports whether any process is in session sid (Linux
// /proc: the sixth field of stat).
func sessionAlive(sid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The command name (field 2) is in parentheses and may hold spaces.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(data[i+1:]))
		if len(fields) > 3 && fields[3] == strconv.Itoa(sid) {
			return true
		}
	}
	return false
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (s *tui) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.tmux, append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tui) screen() string { return s.run("capture-pane", "-p", "-t", "e2e") }

// waitScreen waits until the screen shows text, polling the pane until
// the deadline.
func (s *tui) waitScreen(text string, within time.Duration) {
	s.t.Helper()
	s.waitFor(func(screen string) bool { return strings.Contains(screen, text) }, text, within)
}

// input is what the prompt line (the last line starting with ❯) holds.
func input(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "❯"); ok {
			return strings.TrimSpace(strings.ReplaceAll(rest, "\u00a0", " "))
		}
	}
	return ""
}

// waitFor polls the pane until ok holds for the screen or the deadline
// passes.
func (s *tui) waitFor(ok func(string) bool, what string, within time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !ok(s.screen()) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the session did not show %q within %s; the screen:\n%s", what, within, s.screen())
		}
		<-tick.C
	}
}

// typeLine types line at the prompt, waits until it is on the screen,
// dismisses the completion menu and submits it.
func (s *tui) typeLine(line string) {
	s.t.Helper()
	s.run("send-keys", "-t", "e2e", "-l", line)
	s.waitFor(func(screen string) bool { return input(screen) == line }, "❯ "+line, 30*time.Second)
	s.run("send-keys", "-t", "e2e", "Enter")
}

// waitRequest waits for a request whose last user message holds body.
func (s *tui) waitRequest(seen <-chan string, body string, within time.Duration) {
	s.t.Helper()
	timeout := time.After(within)
	var got []string
	for {
		select {
		case text := <-seen:
			if strings.Contains(text, body) {
				return
			}
			got = append(got, fmt.Sprintf("%.120q", text))
		case <-timeout:
			s.t.Fatalf("no request carried %q within %s; last user messages: %v; the screen:\n%s", body, within, got, s.screen())
		}
	}
}
