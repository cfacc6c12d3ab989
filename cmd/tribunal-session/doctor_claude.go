package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// claudeProbeTimeout bounds each of doctor's two calls of the claude CLI
// (--version, auth status): both read local state, so a CLI that takes
// longer is stuck, and doctor must still finish its screen.
const claudeProbeTimeout = 10 * time.Second

// doctorClaude finds claude the way a run does, checks that it answers
// --version with a version, and that it has credentials: `claude auth
// status`, which reads local state and calls no model.
func (c *cli) doctorClaude(ctx context.Context, d *doctor) {
	dir, _ := os.Getwd()
	path, from, err := c.locateClaude(dir)
	if err != nil {
		if path == "" {
			d.problem("claude: not found on PATH")
		} else {
			d.problem("claude: %s (from %s) is not an executable file", path, from)
		}
		d.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return
	}
	out, err := c.probeClaude(ctx, path, "--version")
	var version string
	if err == nil {
		version, err = claude.ParseVersion(string(out))
	}
	if err != nil {
		d.problem("claude: %s (from %s) is not a working Claude Code CLI: %v", path, from, err)
		d.hint("check that the file is the Claude Code CLI; 'claude --version' must print its version, e.g. 2.1.332 (Claude Code)")
		return
	}
	d.ok("claude: %s (from %s), version %s", path, from, version)
	// auth status exits 1 when not logged in: its JSON says so either way.
	out, runErr := c.probeClaude(ctx, path, "auth", "status")
	auth, err := claude.ParseAuthStatus(out)
	switch {
	case err == nil && auth.LoggedIn:
		d.ok("claude: %s", auth.Describe())
	case err == nil:
		d.problem("claude: not logged in, and no API key is set ('claude auth status')")
		d.hint("run 'claude auth login', or set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from 'claude setup-token')")
	case c.credentialsFound() != "":
		d.ok("claude: %s found ('claude auth status' unavailable: %v)", c.credentialsFound(), err)
	default:
		if runErr != nil && len(out) == 0 {
			err = runErr
		}
		d.problem("claude: cannot tell whether it is logged in: %v", err)
		d.hint("run 'claude auth login', or set ANTHROPIC_API_KEY; a Claude Code older than 2.1 has no 'claude auth status': update it")
	}
}

// probeClaude runs claude with args under the recursion guard and a short
// deadline, returning its stdout.
func (c *cli) probeClaude(ctx context.Context, path string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, claudeProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = claude.ChildEnv(os.Environ(), 0)
	cmd.WaitDelay = time.Second
	return cmd.Output()
}

// credentialsFound names credentials claude would use that are visible
// without running it, for a CLI that cannot say itself: a key in the
// environment or the credentials file a login writes ("" when none).
func (c *cli) credentialsFound() string {
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"} {
		if c.getenv(k) != "" {
			return k
		}
	}
	creds := filepath.Join(c.home(), ".claude", ".credentials.json")
	if _, err := os.Stat(creds); err == nil {
		return creds
	}
	return ""
}

// doctorSandbox says whether the adversarial judge's Bash can run inside
// Claude Code's sandbox here: the rule a run applies (claude.CheckSandbox),
// on the PATH its claude children get.
func (c *cli) doctorSandbox(d *doctor) {
	s := claude.CheckSandbox(runtime.GOOS, c.getenv("PATH"), func(p string) bool { _, err := os.Stat(p); return err == nil })
	switch {
	case s.OK:
		d.ok("sandbox: the adversarial judge's Bash runs sandboxed")
	case s.Install != "":
		d.problem("sandbox: %s: the adversarial judge would run without Bash", s.Why)
		d.hint("%s (Debian, Ubuntu; the same packages elsewhere)", s.Install)
	default:
		d.add("note", "sandbox: %s: the adversarial judge runs without Bash", s.Why)
	}
}
