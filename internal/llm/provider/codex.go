package provider

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// codexCLI runs the OpenAI Codex CLI non-interactively: `codex exec` in
// the task worktree, read-only sandbox, no persisted session, the verdict
// schema as its output schema.
type codexCLI struct {
	deps Deps
	spec Spec
}

// codexProviderID is the model-provider entry tribunal defines with -c when
// the seat has a base_url.
const codexProviderID = "tribunal"

// CodexArgs returns the arguments of one `codex exec` call (prompt on
// stdin), given the paths of the schema file and the last-message file.
func CodexArgs(s Spec, c claude.Call, schemaFile, lastFile string) []string {
	args := []string{"exec", "--ephemeral", "--sandbox", "read-only", "--skip-git-repo-check",
		"--color", "never", "--json", "--output-last-message", lastFile}
	if schemaFile != "" {
		args = append(args, "--output-schema", schemaFile)
	}
	if c.Dir != "" {
		args = append(args, "--cd", c.Dir)
	}
	if s.Model != "" {
		args = append(args, "--model", s.Model)
	}
	if s.BaseURL != "" {
		entry := "{name=" + tomlString(codexProviderID) + ", base_url=" + tomlString(s.BaseURL) + `, wire_api="responses"`
		if s.APIKeyEnv != "" {
			entry += ", env_key=" + tomlString(s.APIKeyEnv)
		}
		entry += "}"
		args = append(args, "-c", "model_provider="+tomlString(codexProviderID),
			"-c", "model_providers."+codexProviderID+"="+entry)
	}
	return append(args, "-")
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (x *codexCLI) Run(ctx context.Context, c claude.Call) (claude.Result, error) {
	res := claude.Result{Envelope: true}
	cc, err := x.deps.startCLI(Codex, x.deps.CodexPath)
	if err != nil {
		return res, err
	}
	defer cc.done()
	var schemaFile string
	if c.JSONSchema != "" {
		schemaFile = filepath.Join(cc.dir, "schema.json")
		if err := os.WriteFile(schemaFile, []byte(c.JSONSchema), 0o600); err != nil {
			return res, fmt.Errorf("write the output schema: %w", err)
		}
	}
	lastFile := filepath.Join(cc.dir, "last-message.txt")
	env := map[string]string{}
	if x.spec.APIKeyEnv != "" && x.spec.BaseURL == "" {
		// The built-in OpenAI provider reads its key from here.
		env["CODEX_API_KEY"] = x.deps.Getenv(x.spec.APIKeyEnv)
	}
	stdout, exit, err := cc.run(ctx, c, c.Dir, CodexArgs(x.spec, c, schemaFile, lastFile), withEnv(x.deps.Environ, env), x.spec.APIKeyEnv, cliPrompt(c), &res)
	ev := parseCodexEvents(stdout, &res)
	switch {
	case err != nil:
		return res, err
	case ev.failure != "":
		return res, &CLIError{Program: Codex, Message: ev.failure}
	case exit != nil && ev.lastError != "":
		return res, &CLIError{Program: Codex, Message: ev.lastError}
	case exit != nil:
		return res, exit
	}
	text := ev.lastMessage
	if data, err := os.ReadFile(lastFile); err == nil && len(bytes.TrimSpace(data)) > 0 {
		text = string(data)
	}
	return conform(res, text, c.JSONSchema)
}

// codexEvents is what the --json event stream said.
type codexEvents struct {
	lastMessage string
	failure     string
	lastError   string
}

// parseCodexEvents reads the JSONL events of `codex exec --json`: the
// agent's messages, the turn's usage and a failed turn's error.
func parseCodexEvents(out []byte, res *claude.Result) codexEvents {
	var ev codexEvents
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if nesting.JSON(line) != nil || !gjson.ValidBytes(line) {
			continue
		}
		switch gjson.GetBytes(line, "type").String() {
		case "item.completed":
			if gjson.GetBytes(line, "item.type").String() == "agent_message" {
				ev.lastMessage = gjson.GetBytes(line, "item.text").String()
			}
		case "turn.completed":
			u := gjson.GetManyBytes(line, "usage.input_tokens", "usage.output_tokens")
			RecordUsage(res, gjson.Result{}, u[0], u[1], gjson.Result{})
			res.NumTurns++
		case "turn.failed":
			ev.failure = gjson.GetBytes(line, "error.message").String()
		case "error":
			// Also sent for retries that later succeed ("Reconnecting…"):
			// only a failed run reports it.
			ev.lastError = gjson.GetBytes(line, "message").String()
		}
	}
	return ev
}
