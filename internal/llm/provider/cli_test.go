package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
)

const judgeVerdict = `{"score":0.9,"passed":true,"confidence":0.8,"feedback_summary":"fine","criterion_scores":{"correctness":0.9}}`

// standIn writes an executable shell script named program into a fresh
// directory and returns that directory (for PATH) and a log directory the
// script records its arguments, environment, stdin and working directory in.
func standIn(t *testing.T, program, body string) (pathDir, logDir string) {
	t.Helper()
	pathDir, logDir = t.TempDir(), t.TempDir()
	script := "#!/bin/sh\nLOG=" + logDir + "\n" +
		`for a in "$@"; do printf '%s\n' "$a"; done > "$LOG/args"` + "\n" +
		`env > "$LOG/env"; pwd > "$LOG/pwd"; cat > "$LOG/stdin"` + "\n" + body
	if err := os.WriteFile(filepath.Join(pathDir, program), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return pathDir, logDir
}

func readLog(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func judgeCall(dir string) claude.Call {
	return claude.Call{Role: "judge", Prompt: "THE-MATERIAL", SystemPrompt: "# Tribunal Standard Judge",
		JSONSchema: prompts.VerdictSchema([]string{"correctness"}), Dir: dir, Timeout: 30 * time.Second}
}

func deps(pathDir string, env map[string]string) Deps {
	env["PATH"] = pathDir + ":/usr/bin:/bin"
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	return Deps{Getenv: func(k string) string { return env[k] }, Environ: environ}
}

func argValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func TestCodexStandIn(t *testing.T) {
	// The stand-in answers like `codex exec --json`: events on stdout, the
	// final message in the --output-last-message file.
	pathDir, logDir := standIn(t, "codex", `
last=""; prev=""
for a in "$@"; do [ "$prev" = "--output-last-message" ] && last="$a"; prev="$a"; done
cp "$(dirname "$last")/schema.json" "$LOG/schema" 2>/dev/null
printf '%s' '`+judgeVerdict+`' > "$last"
echo '{"type":"thread.started","thread_id":"t"}'
echo '{"type":"error","message":"Reconnecting... 1/5"}'
echo '{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"ignored when the file exists"}}'
echo '{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":20}}'
`)
	worktree := t.TempDir()
	d := deps(pathDir, map[string]string{"MY_KEY": "sk-1", "TRIBUNAL_NESTED": "",
		"GITHUB_TOKEN": "ghs_forge", "ANTHROPIC_API_KEY": "sk-ant-other", "TRIBUNAL_CACHE_SECRET": "hmac-key"})
	spec := Spec{Provider: Codex, Model: "gpt-5-codex", BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "MY_KEY"}
	res, err := d.Runner(spec).Run(context.Background(), judgeCall(worktree))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if json.Unmarshal(res.Structured, &got) != nil || got["feedback_summary"] != "fine" || res.Tokens == nil || *res.Tokens != 120 {
		t.Errorf("structured %s tokens %v", res.Structured, res.Tokens)
	}
	args := strings.Split(strings.TrimSpace(readLog(t, logDir, "args")), "\n")
	if args[0] != "exec" || argValue(args, "--sandbox") != "read-only" || argValue(args, "--cd") != worktree ||
		argValue(args, "--model") != "gpt-5-codex" || args[len(args)-1] != "-" {
		t.Errorf("args = %q", args)
	}
	for _, want := range []string{"--ephemeral", "--json", "--output-schema", `model_provider="tribunal"`,
		`model_providers.tribunal={name="tribunal", base_url="http://127.0.0.1:9/v1", wire_api="responses", env_key="MY_KEY"}`} {
		if !strings.Contains(strings.Join(args, "\n"), want) {
			t.Errorf("args lack %q: %q", want, args)
		}
	}
	if s := readLog(t, logDir, "schema"); !strings.Contains(s, `"criterion_scores"`) {
		t.Errorf("schema file = %q", s)
	}
	if stdin := readLog(t, logDir, "stdin"); !strings.Contains(stdin, "# Tribunal Standard Judge") || !strings.Contains(stdin, "THE-MATERIAL") {
		t.Errorf("stdin = %q", stdin)
	}
	if env := readLog(t, logDir, "env"); !strings.Contains(env, "TRIBUNAL_NESTED=1") || !strings.Contains(env, "MY_KEY=sk-1") {
		t.Error("the child lacks the recursion guard or the key variable")
	}
	for _, secret := range []string{"ghs_forge", "sk-ant-other", "hmac-key"} {
		if strings.Contains(readLog(t, logDir, "env"), secret) {
			t.Errorf("codex's environment holds %q: a secret its seat does not need", secret)
		}
	}
	if pwd := strings.TrimSpace(readLog(t, logDir, "pwd")); pwd != worktree {
		t.Errorf("codex ran in %q, want the worktree %q", pwd, worktree)
	}
}

func TestCodexFailures(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"api error", `echo '{"type":"turn.failed","error":{"message":"401 Unauthorized: bad key"}}'; exit 1`, "codex reported an error: 401 Unauthorized: bad key"},
		{"error event then exit", `echo '{"type":"error","message":"stream disconnected"}'; exit 1`, "codex reported an error: stream disconnected"},
		{"crash", `echo boom >&2; exit 3`, "codex exited with status 3: boom"},
		{"invalid verdict", `echo '{"type":"item.completed","item":{"type":"agent_message","text":"{\"score\":2}"}}'`, "does not match the output schema"},
		{"hang", `sleep 30`, "codex did not finish within 1s and was killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pathDir, _ := standIn(t, "codex", tt.body)
			c := judgeCall(t.TempDir())
			// Only the hang waits for its deadline; the others get room
			// to start a shell on a loaded machine.
			c.Timeout = time.Minute
			if tt.name == "hang" {
				c.Timeout = time.Second
			}
			_, err := deps(pathDir, map[string]string{}).Runner(Spec{Provider: Codex}).Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestGeminiStandIn(t *testing.T) {
	pathDir, logDir := standIn(t, "gemini", `
cp .gemini/settings.json "$LOG/workspace-settings"
cp "$GEMINI_CLI_HOME/.gemini/settings.json" "$LOG/settings"
cat <<'JSON'
{"session_id":"s","response":"`+"```json\\n"+strings.ReplaceAll(judgeVerdict, `"`, `\"`)+"\\n```"+`","stats":{"models":{"gemini-2.5-flash":{"api":{"totalRequests":1},"tokens":{"prompt":50,"candidates":10,"total":60}}}}}
JSON
`)
	worktree := t.TempDir()
	d := deps(pathDir, map[string]string{"G_KEY": "g-1"})
	spec := Spec{Provider: Gemini, Model: "gemini-2.5-flash", BaseURL: "http://127.0.0.1:9", APIKeyEnv: "G_KEY"}
	res, err := d.Runner(spec).Run(context.Background(), judgeCall(worktree))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if json.Unmarshal(res.Structured, &v) != nil || v["score"] != 0.9 || res.Tokens == nil || *res.Tokens != 60 {
		t.Errorf("structured %s tokens %v", res.Structured, res.Tokens)
	}
	args := strings.Split(strings.TrimSpace(readLog(t, logDir, "args")), "\n")
	if argValue(args, "--approval-mode") != "plan" || argValue(args, "--output-format") != "json" ||
		argValue(args, "--include-directories") != worktree || argValue(args, "--model") != "gemini-2.5-flash" ||
		argValue(args, "--extensions") != "none" {
		t.Errorf("args = %q", args)
	}
	if pwd := strings.TrimSpace(readLog(t, logDir, "pwd")); pwd == worktree || strings.HasPrefix(pwd, worktree) {
		t.Errorf("gemini ran inside the worktree %q: its .gemini settings would apply", pwd)
	}
	settings := readLog(t, logDir, "settings")
	if !strings.Contains(settings, `"hooksConfig":{"enabled":false}`) || !strings.Contains(settings, `"selectedType":"gemini-api-key"`) {
		t.Errorf("settings = %s", settings)
	}
	if ws := readLog(t, logDir, "workspace-settings"); ws != `{"hooksConfig":{"enabled":false}}` {
		t.Errorf("workspace settings = %s", ws)
	}
	env := readLog(t, logDir, "env")
	for _, want := range []string{"GEMINI_API_KEY=g-1", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9", "TRIBUNAL_NESTED=1"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
}

func TestGeminiFailures(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"api error", `echo '{"session_id":"s","error":{"type":"ApiError","message":"[400] API key not valid","code":1}}'; exit 1`, "gemini reported an error: [400] API key not valid"},
		{"not json", `echo oops; exit 1`, "gemini exited with status 1"},
		{"error on stderr", `echo '    at x (y.js:1:2) {' >&2; printf '{\n  "error": {\n    "message": "quota exhausted",\n    "code": 429\n  }\n}\n' >&2; exit 144`, "gemini reported an error: quota exhausted"},
		{"no verdict", `echo '{"response":"I cannot judge this."}'`, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pathDir, _ := standIn(t, "gemini", tt.body)
			_, err := deps(pathDir, map[string]string{}).Runner(Spec{Provider: Gemini}).Run(context.Background(), judgeCall(t.TempDir()))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCLINotInstalled(t *testing.T) {
	for _, p := range []string{Codex, Gemini} {
		_, err := deps(t.TempDir(), map[string]string{}).Runner(Spec{Provider: p}).Run(context.Background(), judgeCall(t.TempDir()))
		var ni *NotInstalledError
		if !errors.As(err, &ni) || !strings.Contains(err.Error(), Packages[p]) {
			t.Errorf("%s: err = %v", p, err)
		}
	}
	if _, err := (Deps{Getenv: func(string) string { return "" }}).Runner(Spec{Provider: OpenAI}).Run(context.Background(), claude.Call{}); err == nil {
		t.Error("an openai seat without an OpenAI factory must fail")
	}
}

func TestTOMLString(t *testing.T) {
	if got := tomlString("a\"b\\c\nd"); got != `"a\"b\\c\u000Ad"` {
		t.Errorf("tomlString = %s", got)
	}
}

func TestConformRealSchemas(t *testing.T) {
	cases := []struct{ text, schema string }{
		{`{"score":0.5,"passed":false,"criterion_scores":{"correctness":0.5},"confidence":0.6,"feedback_summary":"x","findings":[{"severity":"major","message":"m","file":"a.go","line":3}]}`, prompts.VerdictSchema([]string{"correctness"})},
		{`{"score":0.5,"passed":false,"judge_type":"standard","feedback_summary":"x","confidence":0.6}`, prompts.StopVerdictSchema()},
		{`{"verdict_quality":"sound","bias_detected":true,"bias_types":["position","length"]}`, prompts.MetaSchema()},
	}
	for _, c := range cases {
		if _, err := Conform(c.text, c.schema); err != nil {
			t.Errorf("%s: %v", c.text, err)
		}
	}
	bad := []struct{ text, schema, want string }{
		{`{"verdict_quality":"sound","bias_detected":true,"bias_types":["position","position"]}`, prompts.MetaSchema(), "repeats"},
		{`{"score":0.5,"passed":false,"criterion_scores":{},"confidence":0.6,"feedback_summary":"x","findings":[{"severity":"major","message":""}]}`, prompts.VerdictSchema(nil), "shorter than"},
		{`{"score":0.5,"passed":false,"judge_type":"adversarial","feedback_summary":"x","confidence":0.6}`, prompts.StopVerdictSchema(), "allowed values"},
	}
	for _, b := range bad {
		if _, err := Conform(b.text, b.schema); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: err %v, want %q", b.text, err, b.want)
		}
	}
}

func TestDelegate(t *testing.T) {
	pathDir, logDir := standIn(t, "tribunal-session", `
if grep -q FAILME "$LOG/stdin"; then echo '{"result":{"NumTurns":2},"error":"the endpoint answered HTTP 429: slow down"}'; exit 1; fi
echo '{"result":{"Envelope":true,"Structured":{"score":0.5},"NumTurns":1}}'
`)
	bin := filepath.Join(pathDir, "tribunal-session")
	env := []string{"PATH=/usr/bin:/bin", "MY_KEY=k", "GITHUB_TOKEN=ghs_forge", "ANTHROPIC_API_KEY=sk-ant-other"}
	spec := Spec{Provider: OpenAI, Model: "m", BaseURL: "http://x/v1", APIKeyEnv: "MY_KEY"}
	res, err := Delegate(bin, env)(spec).Run(context.Background(), judgeCall(t.TempDir()))
	if err != nil || string(res.Structured) != `{"score":0.5}` {
		t.Fatalf("res %+v err %v", res, err)
	}
	if args := readLog(t, logDir, "args"); args != DelegateCommand+"\n" {
		t.Errorf("args = %q", args)
	}
	var req DelegateRequest
	if err := json.Unmarshal([]byte(readLog(t, logDir, "stdin")), &req); err != nil || req.Spec != spec || req.Call.Prompt != "THE-MATERIAL" {
		t.Errorf("request = %+v (%v)", req, err)
	}
	if e := readLog(t, logDir, "env"); !strings.Contains(e, "TRIBUNAL_NESTED=1") || !strings.Contains(e, "MY_KEY=k") {
		t.Error("the delegate lacks the recursion guard or the key variable")
	}
	if e := readLog(t, logDir, "env"); strings.Contains(e, "ghs_forge") || strings.Contains(e, "sk-ant-other") {
		t.Error("the delegate's environment holds a secret its seat does not need")
	}
	c := judgeCall(t.TempDir())
	c.Prompt = "FAILME"
	res, err = Delegate(bin, env)(spec).Run(context.Background(), c)
	if err == nil || err.Error() != "the endpoint answered HTTP 429: slow down" || res.NumTurns != 2 {
		t.Errorf("failure: res %+v err %v", res, err)
	}
	if _, err := Delegate("", env)(spec).Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "tribunal-session") {
		t.Errorf("no binary: err %v", err)
	}
}
