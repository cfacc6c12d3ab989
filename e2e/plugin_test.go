package e2e

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// validation is the part of `claude plugin validate --json` we check.
type validation struct {
	Success  bool `json:"success"`
	Manifest struct {
		Errors   []json.RawMessage `json:"errors"`
		Warnings []json.RawMessage `json:"warnings"`
	} `json:"manifest"`
	Provides struct {
		Hooks []struct {
			Event   string `json:"event"`
			Command string `json:"command"`
		} `json:"hooks"`
		Skills   []string `json:"skills"`
		Commands []string `json:"commands"`
		Agents   []string `json:"agents"`
		Bin      []string `json:"bin"`
	} `json:"provides"`
}

func TestPluginValidates(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	res := w.claudeRun(time.Minute, "", "plugin", "validate", "--strict", "--json", w.plugin.Dir)
	if res.Code != 0 {
		t.Fatalf("plugin validate --strict exited %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	var v validation
	if err := json.Unmarshal([]byte(res.Stdout), &v); err != nil {
		t.Fatalf("validate --json output: %v\n%s", err, res.Stdout)
	}
	if !v.Success || len(v.Manifest.Errors) != 0 || len(v.Manifest.Warnings) != 0 {
		t.Errorf("manifest: success=%v errors=%s warnings=%s", v.Success, v.Manifest.Errors, v.Manifest.Warnings)
	}
	var hooks []string
	for _, h := range v.Provides.Hooks {
		hooks = append(hooks, h.Event+" "+h.Command)
	}
	slices.Sort(hooks)
	wantHooks := []string{
		`SessionStart "${CLAUDE_PLUGIN_ROOT}"/bin/session-start`,
		`Stop "${CLAUDE_PLUGIN_ROOT}"/bin/stop-gate`,
		`UserPromptSubmit "${CLAUDE_PLUGIN_ROOT}"/bin/prompt-submit`,
	}
	if !slices.Equal(hooks, wantHooks) {
		t.Errorf("hooks %q, want %q", hooks, wantHooks)
	}
	checks := []struct {
		what      string
		got, want []string
	}{
		{"skills", v.Provides.Skills, []string{"tribunal:tribunal"}},
		{"commands", v.Provides.Commands, []string{"tribunal:tribunal-log"}},
		{"agents", v.Provides.Agents, []string{"tribunal:tribunal-actor", "tribunal:tribunal-judge-adversarial",
			"tribunal:tribunal-judge-security", "tribunal:tribunal-judge-standard", "tribunal:tribunal-meta-judge"}},
		{"bin", v.Provides.Bin, []string{"prompt-submit", "session-start", "stop-gate", "tribunal-mcp", "tribunal-otel", "tribunal-schema", "tribunal-session"}},
	}
	for _, c := range checks {
		got := slices.Sorted(slices.Values(c.got))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %q, want %q", c.what, got, c.want)
		}
	}

	market := w.claudeRun(time.Minute, "", "plugin", "validate", w.plugin.Market)
	if market.Code != 0 || !strings.Contains(market.Stdout, "Validation passed") {
		t.Errorf("marketplace validate exited %d\n%s\n%s", market.Code, market.Stdout, market.Stderr)
	}
}

// loaded checks, from a run's init event and hook events, that tribunal
// was loaded from source with everything it provides, and that both of its
// hooks ran and succeeded.
func loaded(t *testing.T, s stream, source string) {
	t.Helper()
	init := s.one(t, "system", "init")
	found := false
	for _, p := range init["plugins"].([]any) {
		m, _ := p.(map[string]any)
		if m["name"] == "tribunal" {
			found = true
			if m["source"] != source {
				t.Errorf("tribunal loaded from %v, want %s", m["source"], source)
			}
		}
	}
	if !found {
		t.Fatalf("tribunal is not among the loaded plugins: %v", init["plugins"])
	}
	has := func(key, name string) {
		for _, v := range init[key].([]any) {
			if v == name {
				return
			}
		}
		t.Errorf("init %s lacks %q: %v", key, name, init[key])
	}
	has("skills", "tribunal:tribunal")
	has("slash_commands", "tribunal:tribunal-log")
	has("agents", "tribunal:tribunal-judge-standard")
	for _, event := range []string{"SessionStart", "Stop"} {
		hooks := s.hookResponses(event)
		if len(hooks) != 1 {
			t.Errorf("want one %s hook run, got %d", event, len(hooks))
			continue
		}
		if code, _ := hooks[0]["exit_code"].(float64); code != 0 || hooks[0]["outcome"] != "success" {
			t.Errorf("%s hook: exit %v, outcome %v, stderr %q", event, hooks[0]["exit_code"], hooks[0]["outcome"], hooks[0]["stderr"])
		}
	}
}

func TestPluginLoadsWithPluginDir(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	res := w.claudeRun(time.Minute, "", streamArgs("--plugin-dir", w.plugin.Dir, "--", "hello")...)
	if res.Code != 0 {
		t.Fatalf("claude exited %d\n%s", res.Code, res.Stderr)
	}
	loaded(t, parseStream(t, res.Stdout), "tribunal@inline")
}

func TestPluginInstallsFromMarketplace(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", w.plugin.Market},
		{"plugin", "install", "tribunal@tribunal-local"},
	} {
		if res := w.claudeRun(time.Minute, "", args...); res.Code != 0 {
			t.Fatalf("claude %s exited %d\n%s\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
	}
	settings := readJSON(t, w.home+"/.claude/settings.json")
	if enabled, _ := settings["enabledPlugins"].(map[string]any); enabled["tribunal@tribunal-local"] != true {
		t.Errorf("the plugin is not enabled in ~/.claude/settings.json: %v", settings)
	}
	res := w.claudeRun(time.Minute, "", streamArgs("hello")...)
	if res.Code != 0 {
		t.Fatalf("claude exited %d\n%s", res.Code, res.Stderr)
	}
	loaded(t, parseStream(t, res.Stdout), "tribunal@tribunal-local")

	// /tribunal:tribunal-log is reachable through the installed plugin and its
	// pre-approved command runs (no project history yet).
	logRule := w.api.Add(fakeLogCommand(w))
	res = w.claudeRun(time.Minute, "", streamArgs("/tribunal:tribunal-log")...)
	if res.Code != 0 {
		t.Fatalf("/tribunal:tribunal-log exited %d\n%s", res.Code, res.Stderr)
	}
	s := parseStream(t, res.Stdout)
	if d, _ := s.result(t)["permission_denials"].([]any); len(d) != 0 {
		t.Errorf("the command's tribunal-session call was denied: %v", d)
	}
	calls := w.api.ByRule(logRule)
	if len(calls) != 2 {
		t.Fatalf("want 2 model calls for /tribunal:tribunal-log, got %d\n%s", len(calls), w.api.Summary())
	}
	t.Logf("tribunal-session log said: %s", calls[1].ToolResults()[0].Content.Text())
}

// logCommand is the command line the /tribunal:tribunal-log body tells the model
// to run, with ${CLAUDE_PLUGIN_ROOT} substituted by Claude Code.
var logCommand = regexp.MustCompile(`"[^"\n]+/bin/tribunal-session" log --limit 20`)

// fakeLogCommand plays the model for /tribunal:tribunal-log: run the command the
// body names, then report.
func fakeLogCommand(w *world) fakeapi.Rule {
	return fakeapi.Rule{
		Name:  "user conversation (/tribunal:tribunal-log)",
		Match: fakeapi.Match{AnyContains: "Show the user tribunal's records for this project"},
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if len(r.ToolUses()) > 0 {
				return fakeapi.Text("Here is the log.")
			}
			cmd := logCommand.FindString(r.AllText())
			if cmd == "" {
				w.t.Errorf("the /tribunal:tribunal-log body with its command did not reach the model")
				return fakeapi.Text("no command")
			}
			return fakeapi.Bash(cmd)
		},
	}
}
