package claude

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// TestJudgingCallsReadNoTreeConfiguration holds the isolation rule: every
// call but the actor's reads the user's settings only, no MCP server and
// no CLAUDE.md, whatever the caller set; the actor keeps its tree's.
func TestJudgingCallsReadNoTreeConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		call     Call
		isolated bool
	}{
		{"judge", Call{Role: "judge", StrictMCP: true}, true},
		{"a call that forgot StrictMCP", Call{Role: "verify"}, true},
		{"sandboxed adversarial judge", Call{Role: "judge", Dir: "/w"}.WithSandboxedBash(), true},
		{"actor", Call{Role: "actor", TrustTree: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := strings.Join(Args(tc.call), " ")
			env := CallEnv([]string{"PATH=/bin", DisableClaudeMDsEnv + "=0"}, tc.call)
			sources := strings.Contains(args, "--setting-sources user")
			strict := strings.Contains(args, "--strict-mcp-config")
			mds := slices.Contains(env, DisableClaudeMDsEnv+"=1") && !slices.Contains(env, DisableClaudeMDsEnv+"=0")
			if sources != tc.isolated || strict != tc.isolated || mds != tc.isolated {
				t.Errorf("--setting-sources user %v, --strict-mcp-config %v, CLAUDE.md off %v; want all %v\nargs: %s\nenv: %q",
					sources, strict, mds, tc.isolated, args, env)
			}
		})
	}
}

// TestExecDropsSecretsClaudeDoesNotNeed runs a real child that prints
// its environment: the forge's token is gone, claude's key stays.
func TestExecDropsSecretsClaudeDoesNotNeed(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	script := "#!/bin/sh\ncat >/dev/null\nenv > " + filepath.Join(dir, "env.txt") + "\necho '{\"type\":\"result\",\"result\":\"ok\"}'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := Exec{Path: bin, Env: []string{"PATH=/usr/bin:/bin", "GITHUB_TOKEN=ghs_forge", "OPENAI_API_KEY=sk-other",
		"TRIBUNAL_CACHE_SECRET=hmac-key", "ANTHROPIC_API_KEY=sk-ant-own"}}
	if _, err := e.Run(context.Background(), Call{Role: "judge", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	env := string(data)
	for _, gone := range []string{"ghs_forge", "sk-other", "hmac-key"} {
		if strings.Contains(env, gone) {
			t.Errorf("the child's environment holds %q:\n%s", gone, env)
		}
	}
	for _, kept := range []string{"ANTHROPIC_API_KEY=sk-ant-own", childenv.GuardEnv + "=1", DisableClaudeMDsEnv + "=1"} {
		if !strings.Contains(env, kept) {
			t.Errorf("the child's environment lacks %q:\n%s", kept, env)
		}
	}
}

// TestCISandboxedBashGetsNoKeys: in CI, a sandboxed Bash's commands get
// none of Claude Code's own keys; outside CI, and for a call without
// Bash, nothing changes.
func TestCISandboxedBashGetsNoKeys(t *testing.T) {
	sandboxed := Call{Role: "judge", Dir: "/w"}.WithSandboxedBash()
	for _, tc := range []struct {
		name string
		base []string
		call Call
		want bool
	}{
		{"CI, sandboxed Bash", []string{"CI=true"}, sandboxed, true},
		{"CI=1, sandboxed Bash", []string{"CI=1"}, sandboxed, true},
		{"CI, judge without Bash", []string{"CI=true"}, Call{Role: "judge"}.WithoutBash(), false},
		{"CI=false", []string{"CI=false"}, sandboxed, false},
		{"not CI", nil, sandboxed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Contains(CallEnv(tc.base, tc.call), SubprocessEnvScrubEnv+"=1")
			if got != tc.want {
				t.Errorf("%s=1 set: %v, want %v", SubprocessEnvScrubEnv, got, tc.want)
			}
		})
	}
}
