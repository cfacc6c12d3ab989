package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// TestCISandboxedBashReadsNoSecret: in CI, the adversarial judge's Bash
// (issue 30 item 10) runs in the real CLI's sandbox and no command of it
// reads a secret — not the forge's token (dropped before the CLI starts),
// not the model key the CLI itself needs (CLAUDE_CODE_SUBPROCESS_ENV_SCRUB:
// the CLI strips it from its commands, and refuses the commands it cannot
// tell are read-only). A read of the worktree still works.
func TestCISandboxedBashReadsNoSecret(t *testing.T) {
	t.Parallel()
	bin := claudeBin(t)
	requireSandbox(t)
	dir, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "inside.txt"), []byte(insideMark+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := []string{
		`echo "k=[$ANTHROPIC_API_KEY] t=[$GITHUB_TOKEN]"`,
		"printenv ANTHROPIC_API_KEY GITHUB_TOKEN",
		"env",
		`sh -c 'echo $ANTHROPIC_API_KEY'`,
		`python3 -c 'import os; print(os.environ.get("ANTHROPIC_API_KEY"))'`,
		"cat /proc/self/environ",
		"cat inside.txt",
	}
	api := fakeapi.Start(t)
	api.Log = t.Logf
	rule := api.Add(fakeapi.Rule{Name: "adversarial judge", Match: fakeapi.Match{SystemContains: "# Adversarial"},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if n := len(r.ToolUses()); n < len(commands) {
				return fakeapi.ToolUse("", "Bash", map[string]any{"description": "probe", "command": commands[n]})
			}
			return judgeVerdict(0.9, true, "No failure found.")
		}})
	environ := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CI=true",
		"ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=" + realAPIKey, "GITHUB_TOKEN=" + forgeToken,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0", "DISABLE_AUTOUPDATER=1"}
	// The adversarial judge's call, as judging.confineBash makes it.
	call := claude.Call{Role: "judge", Prompt: "judge the change", SystemPrompt: "# Adversarial",
		JSONSchema: prompts.VerdictSchema([]string{"correctness", "completeness", "safety", "clarity"}),
		Tools:      []string{"Bash", "Read"}, AllowedTools: []string{"Bash", "Read"},
		MaxTurns: len(commands) + 2, Dir: dir, Timeout: 3 * time.Minute}.WithSandboxedBash()
	res, err := claude.Exec{Path: bin, Env: environ}.Run(context.Background(), call)
	if err != nil {
		t.Fatalf("the sandboxed judge failed: %v\n%s\n%s", err, res.Stderr, api.Summary())
	}
	reqs := api.ByRule(rule)
	if len(reqs) != len(commands)+1 {
		t.Fatalf("want %d requests (each command, then the verdict), got %d\n%s", len(commands)+1, len(reqs), api.Summary())
	}
	for i, r := range reqs[1:] {
		out := r.ToolResults()[0].Content.Text()
		t.Logf("%s → %q", commands[i], out)
		if strings.Contains(out, realAPIKey) || strings.Contains(out, forgeToken) {
			t.Errorf("%s read a secret: %q", commands[i], out)
		}
		if i == len(commands)-1 && !strings.Contains(out, insideMark) {
			t.Errorf("the read inside the worktree failed: %q", out)
		}
	}
	for _, r := range api.Requests() {
		if strings.Contains(string(r.Raw), realAPIKey) || strings.Contains(string(r.Raw), forgeToken) {
			t.Errorf("request #%d carries a secret", r.Seq)
		}
	}
}
