package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// The adversarial judge's Bash against the real CLI's sandbox
// (docs/security.md §2.4): the judge, scripted through the fake Messages
// API, tries to read files outside the task worktree (the user's home, the
// main repository, a temporary directory), to escape the sandbox with
// dangerouslyDisableSandbox, and to reach the network; then it reads a file
// of the worktree. The actor, the standard judge and the meta-judge are
// in-memory fakes: the adversarial seat is the real CLI.

const (
	sandboxSecret = "TOP-SECRET-SANDBOX-5521"
	insideMark    = "INSIDE-WORKTREE-E2E-OK"
	probePath     = "/sandbox-network-probe"
)

// requireSandbox skips (one line) where Claude Code's sandbox cannot run,
// unless TRIBUNAL_E2E=require (CI) makes that a failure.
func requireSandbox(t *testing.T) {
	t.Helper()
	s := claude.CheckSandbox(runtime.GOOS, os.Getenv("PATH"), func(p string) bool { _, err := os.Stat(p); return err == nil })
	if s.OK {
		return
	}
	msg := "Claude Code's Bash sandbox cannot run here: " + s.Why
	if s.Install != "" {
		msg += " (" + s.Install + ")"
	}
	if os.Getenv("TRIBUNAL_E2E") == "require" {
		t.Fatal(msg + " (TRIBUNAL_E2E=require)")
	}
	t.Skip(msg)
}

func TestAdversarialJudgeBashIsSandboxed(t *testing.T) {
	t.Parallel()
	bin := claudeBin(t)
	requireSandbox(t)
	base := t.TempDir()
	home, repo, onlooker := filepath.Join(base, "home"), filepath.Join(base, "repo"), filepath.Join(base, "onlooker")
	for _, d := range []string{filepath.Join(home, ".ssh"), repo, onlooker} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	api := fakeapi.Start(t)
	api.Log = t.Logf
	childEnv := []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ONLOOKER_DIR=" + onlooker,
		"ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=dummy-e2e-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0", "DISABLE_AUTOUPDATER=1",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=E2E", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=E2E", "GIT_COMMITTER_EMAIL=e2e@example.com",
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, childEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	write := func(path, content string) {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, "inside.txt"), insideMark+"\n")
	write(filepath.Join(repo, ".gitignore"), ".env\n")
	git("add", "-A")
	git("commit", "-q", "-m", "initial")
	// Secrets outside the task worktree: in the user's home, in the main
	// repository's working tree (an ignored file, which the snapshot does
	// not copy) and in a temporary directory.
	secrets := []string{filepath.Join(home, ".ssh", "id_e2e"), filepath.Join(repo, ".env"), filepath.Join(base, "secret.txt")}
	hook := filepath.Join(repo, ".git", "hooks", "post-checkout")
	for _, s := range secrets {
		write(s, sandboxSecret+"\n")
	}
	u, _ := url.Parse(api.URL)
	commands := []map[string]any{
		{"command": "cat " + secrets[0]},
		{"command": "cat " + secrets[1]},
		{"command": "cat " + secrets[2]},
		{"command": "cat " + secrets[0], "dangerouslyDisableSandbox": true},
		// Through the proxy the CLI sets up, and straight to the socket.
		{"command": fmt.Sprintf("curl -sS -m 5 http://%s%s", u.Host, probePath)},
		{"command": fmt.Sprintf("printf 'GET %s HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/%s/%s", probePath, u.Hostname(), u.Port())},
		// Claude Code lets a linked worktree's git read the main
		// repository's .git, but never write its hooks.
		{"command": "mkdir -p " + filepath.Dir(hook) + " && echo 'echo pwned' > " + hook},
		{"command": "cat inside.txt"},
	}
	adversarial := api.Add(fakeapi.Rule{
		Name:  "adversarial judge",
		Match: fakeapi.Match{SystemContains: "# Tribunal Adversarial Judge"},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if n := len(r.ToolUses()); n < len(commands) {
				in := map[string]any{"description": "probe"}
				for k, v := range commands[n] {
					in[k] = v
				}
				return fakeapi.ToolUse("", "Bash", in)
			}
			return judgeVerdict(0.9, true, "No failure found (E2E-SANDBOX).")
		},
	})
	real := claude.Exec{Path: bin, Env: childEnv}
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		switch {
		case c.Role == "actor":
			return claude.Result{Envelope: true, Text: "Nothing to change."}, nil
		case c.Role == "meta":
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		case strings.Contains(c.SystemPrompt, "# Tribunal Adversarial Judge"):
			return real.Run(ctx, c)
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"confidence":0.8,"feedback_summary":"ok","criterion_scores":{"correctness":0.9}}`)}, nil
	})
	getenv := func(k string) string {
		for _, kv := range childEnv {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	settings := `{"tribunal":{"session":{"judge_types":["standard","adversarial"],"max_iterations":1}}}`
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(home, ".claude", "settings.json"), settings)
	var notes []string
	rep, err := session.Run(context.Background(), session.Options{Task: "review the greeting", Dir: repo}, session.Deps{
		Env: env.Env{
			Getenv:  getenv,
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", childEnv),
			Environ: childEnv,
			Note:    func(s string) { notes = append(notes, s) },
		},
	})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, api.Summary())
	}
	checkSandboxedJudge(t, api, adversarial, len(commands))
	if _, err := os.Stat(hook); err == nil {
		t.Errorf("the judge wrote a git hook into the main repository")
	}
	for _, r := range api.Requests() {
		if r.Path == probePath {
			t.Errorf("the judge's curl reached the network (the fake API got %s %s)", r.Method, r.Path)
		}
		if strings.Contains(string(r.Raw), sandboxSecret) {
			t.Errorf("a secret outside the worktree reached the model in request #%d", r.Seq)
		}
	}
	var adv *judging.JudgeReport
	for i, j := range rep.Iterations[0].Judges {
		if j.Type == "adversarial" {
			adv = &rep.Iterations[0].Judges[i]
		}
	}
	if adv == nil || adv.Bash != "sandboxed" || adv.Failed {
		t.Errorf("adversarial seat report: %+v (notes %q)", adv, notes)
	}
	noSecretOnDisk(t, onlooker)
}

// checkSandboxedJudge checks the tool results the CLI sent back: every
// read outside the worktree and the network probe failed, the read inside
// succeeded.
func checkSandboxedJudge(t *testing.T, api *fakeapi.Server, rule, n int) {
	t.Helper()
	reqs := api.ByRule(rule)
	if len(reqs) != n+1 {
		t.Fatalf("want %d adversarial requests (%d commands, then the verdict), got %d\n%s", n+1, n, len(reqs), api.Summary())
	}
	if names := reqs[0].ToolNames(); !containsString(names, "Bash") {
		t.Fatalf("the adversarial judge was not offered Bash: %v", names)
	}
	for i, r := range reqs[1:] {
		res := r.ToolResults()
		if len(res) != 1 {
			t.Fatalf("command %d: want one tool result, got %+v", i, res)
		}
		out := res[0].Content.Text()
		t.Logf("command %d: is_error=%v %q", i, res[0].IsError, out)
		switch {
		case i == n-1:
			if res[0].IsError || !strings.Contains(out, insideMark) {
				t.Errorf("the read inside the worktree failed: %q", out)
			}
		case i == n-2:
			if !res[0].IsError {
				t.Errorf("the write into the main repository's .git did not fail: %q", out)
			}
		case i == n-3 || i == n-4:
			// The network probes: refused when the fake API never saw
			// them (checked by the caller).
		case strings.Contains(out, sandboxSecret):
			t.Errorf("command %d read a secret outside the worktree: %q", i, out)
		case !res[0].IsError:
			t.Errorf("command %d: the read outside the worktree did not fail: %q", i, out)
		}
	}
}

// noSecretOnDisk fails when a record under dir holds the secret.
func noSecretOnDisk(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), sandboxSecret) {
			t.Errorf("%s holds a secret from outside the worktree", path)
		}
		return nil
	})
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
