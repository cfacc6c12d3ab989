package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// mcpChange is the uncommitted file the MCP tests have judged, and the
// finding the adversarial judge raises on it.
const (
	mcpFile   = "greeting.go"
	mcpSource = "package greeting\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name[:1] }\n"
	mcpFlaw   = "Greet slices an empty name (E2E-MCP-FLAW)"
	mcpTask   = "add a Greet function"
)

// A review's id and a finding's fingerprint in the review JSON, indented
// (the tool's text) or compact (its structured content, which Claude Code
// hands the model).
var (
	reviewIDPattern    = regexp.MustCompile(`"review_id":\s*"([0-9A-Z]{26})"`)
	fingerprintPattern = regexp.MustCompile(`"fingerprint":\s*"tf2:[0-9a-f]{32}"`)
)

// scriptMCPJury answers the review's nested judges: the standard judge
// passes, the adversarial judge raises mcpFlaw at greeting.go:4.
func scriptMCPJury(w *world) map[string]int {
	flaw := fakeapi.Structured(map[string]any{
		"score": 0.4, "passed": false, "confidence": 0.8, "feedback_summary": mcpFlaw,
		"criterion_scores": map[string]float64{"correctness": 0.3, "completeness": 0.6, "safety": 0.6, "clarity": 0.7},
		"findings":         []map[string]any{{"severity": "major", "message": mcpFlaw, "file": mcpFile, "line": 4, "criterion": "correctness"}},
	})
	return scriptRoles(w.api, func() {}, "", flaw)
}

// serverEnv is what the MCP server needs of the world's environment; a
// client that starts it with only a few variables (the Inspector) is
// handed these.
func (w *world) serverEnv() []string {
	var out []string
	for _, kv := range w.environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "PATH" || k == "ONLOOKER_DIR" || k == "DISABLE_AUTOUPDATER" ||
			strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") || strings.HasPrefix(k, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// TestMCPInspector: the MCP Inspector's CLI (pinned in package.json)
// starts `tribunal-session mcp`, lists its tools and calls each one:
// judge (the work tree's change, through the real claude judges against
// the fake API), list_verdicts, show_verdict, dismiss_finding, and a call
// with an unknown argument, refused before any model call.
func TestMCPInspector(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	inspector := findCLI(t, "mcp-inspector", os.Getenv("MCP_INSPECTOR_BIN"))
	server := filepath.Join(w.plugin.Dir, "bin", "tribunal-session")
	roles := scriptMCPJury(w)
	w.writeFile(mcpFile, mcpSource)
	inspect := func(wantOK bool, args ...string) string {
		t.Helper()
		full := []string{"--cli", server, "mcp"}
		for _, kv := range w.serverEnv() {
			full = append(full, "-e", kv)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, inspector, append(full, args...)...)
		cmd.Dir, cmd.Env = w.repo, w.environ()
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if (err == nil) != wantOK {
			t.Fatalf("inspector %s: %v (want success %v)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, wantOK, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	out := inspect(true, "--method", "tools/list", "--strict")
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list output: %v\n%s", err, out)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema["additionalProperties"] != false {
			t.Errorf("%s: the input schema allows unknown arguments: %v", tool.Name, tool.InputSchema)
		}
	}
	if got := strings.Join(names, " "); got != "dismiss_finding judge list_verdicts show_verdict verify" {
		t.Fatalf("tools %q", got)
	}

	out = inspect(true, "--method", "tools/call", "--tool-name", "judge", "--tool-arg", "task="+mcpTask)
	m := reviewIDPattern.FindStringSubmatch(strings.ReplaceAll(out, `\"`, `"`))
	if m == nil || !strings.Contains(out, "rejected") || !strings.Contains(out, "E2E-MCP-FLAW") {
		t.Fatalf("judge: no rejected review with the flaw and an id:\n%s", out)
	}
	id := m[1]
	if n := len(w.api.ByRule(roles["adversarial"])); n != 1 {
		t.Fatalf("want one adversarial judge call, got %d\n%s", n, w.api.Summary())
	}
	if !strings.Contains(w.api.ByRule(roles["adversarial"])[0].AllText(), "func Greet") {
		t.Errorf("the judge was not shown the untracked %s", mcpFile)
	}
	if out = inspect(true, "--method", "tools/call", "--tool-name", "list_verdicts", "--tool-arg", "limit=5"); !strings.Contains(out, id) {
		t.Errorf("list_verdicts lacks review %s:\n%s", id, out)
	}
	if out = inspect(true, "--method", "tools/call", "--tool-name", "show_verdict", "--tool-arg", "id="+id); !strings.Contains(out, "E2E-MCP-FLAW") {
		t.Errorf("show_verdict lacks the finding:\n%s", out)
	}
	if out = inspect(true, "--method", "tools/call", "--tool-name", "dismiss_finding", "--tool-arg", "id="+id, "finding=1", "reason=empty names never reach Greet"); !strings.Contains(out, "tf2:") {
		t.Errorf("dismiss_finding: no fingerprint:\n%s", out)
	}
	calls := len(w.api.Requests())
	if out = inspect(false, "--method", "tools/call", "--tool-name", "judge", "--tool-arg", "dif=x"); !strings.Contains(out, `unknown argument \"dif\"`) {
		t.Errorf("an unknown argument: %s", out)
	}
	if n := len(w.api.Requests()); n != calls {
		t.Errorf("a refused call reached the model: %d requests, %d before", n, calls)
	}
}

// TestMCPClaudeCode: the real Claude Code CLI, given the server with
// --mcp-config, calls mcp__tribunal__judge when its (fake) model asks;
// the review runs (the nested judges answer) and its verdict, findings
// and record id come back to the model as the tool's result.
func TestMCPClaudeCode(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	server := filepath.Join(w.plugin.Dir, "bin", "tribunal-session")
	roles := scriptMCPJury(w)
	w.writeFile(mcpFile, mcpSource)
	// Offer the server's tools to the model up front rather than behind
	// ToolSearch (Claude Code defers MCP tools by default).
	w.extra = append(w.extra, "ENABLE_TOOL_SEARCH=false")
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"tribunal": map[string]any{"command": server, "args": []string{"mcp"}}}})
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	const tool, done = "mcp__tribunal__judge", "The jury has spoken. (E2E-MCP-DONE)"
	var result string
	user := w.api.Add(fakeapi.Rule{Name: "user conversation (asks for a jury)",
		Match: fakeapi.Match{Func: func(r *fakeapi.Request) bool { return r.HasTool(tool) }},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			results := r.ToolResults()
			if len(results) == 0 {
				return fakeapi.ToolUse("Asking the jury.", tool, map[string]any{"task": mcpTask})
			}
			result = results[0].Content.Text()
			return fakeapi.Text(done)
		}})
	res := w.claudeRun(4*time.Minute, "", streamArgs("--mcp-config", cfg, "--strict-mcp-config", "--allowedTools", tool, "--", "judge my change")...)
	if res.Code != 0 {
		t.Fatalf("claude exited %d\n%s\nfake API:\n%s", res.Code, res.Stderr, w.api.Summary())
	}
	if got := str(parseStream(t, res.Stdout).result(t)["result"]); !strings.Contains(got, "E2E-MCP-DONE") {
		t.Fatalf("final result %q", got)
	}
	if n := len(w.api.ByRule(user)); n != 2 {
		t.Fatalf("want the tool call and the answer after it, got %d requests\n%s", n, w.api.Summary())
	}
	if !reviewIDPattern.MatchString(result) || !strings.Contains(result, "rejected") || !strings.Contains(result, "E2E-MCP-FLAW") || !fingerprintPattern.MatchString(result) {
		t.Fatalf("the tool result that came back is not the review:\n%s", result)
	}
	if n := len(w.api.ByRule(roles["standard"])) + len(w.api.ByRule(roles["adversarial"])); n != 2 {
		t.Fatalf("want the two judges to have run, got %d calls\n%s", n, w.api.Summary())
	}
	m := reviewIDPattern.FindStringSubmatch(result)
	if m == nil {
		t.Fatalf("no review id in %s", result)
	}
	reviews, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", m[1], "review.json"))
	if len(reviews) != 1 {
		t.Fatalf("review %s is not recorded under %s", m[1], w.onlooker)
	}
}

// TestMCPPluginRegisters: the plugin's manifest (mcpServers) starts the
// server in a session that loads the plugin, and the session's model is
// offered its five tools, named as Claude Code names a plugin's server.
func TestMCPPluginRegisters(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	w.extra = append(w.extra, "ENABLE_TOOL_SEARCH=false")
	res := w.claudeRun(2*time.Minute, "", streamArgs("--plugin-dir", w.plugin.Dir, "--", "hello")...)
	if res.Code != 0 {
		t.Fatalf("claude exited %d\n%s", res.Code, res.Stderr)
	}
	var offered []string
	for _, r := range w.api.Requests() {
		for _, name := range r.ToolNames() {
			if strings.HasPrefix(name, "mcp__") && strings.Contains(name, "tribunal") && !slices.Contains(offered, name) {
				offered = append(offered, name)
			}
		}
	}
	slices.Sort(offered)
	want := []string{"mcp__plugin_tribunal_tribunal__dismiss_finding", "mcp__plugin_tribunal_tribunal__judge",
		"mcp__plugin_tribunal_tribunal__list_verdicts", "mcp__plugin_tribunal_tribunal__show_verdict", "mcp__plugin_tribunal_tribunal__verify"}
	if !slices.Equal(offered, want) {
		t.Fatalf("tools offered %q, want %q\n%s", offered, want, w.api.Summary())
	}
}
