package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// geminiCLI runs the Gemini CLI non-interactively: headless (-p), JSON
// output, plan (read-only) approval mode, in the task worktree.
type geminiCLI struct {
	deps Deps
	spec Spec
}

// geminiInstruction is the -p text; the role prompt and the material come
// on stdin, which the CLI puts before it.
const geminiInstruction = "Give your verdict now: exactly one JSON object as described above."

// GeminiArgs returns the arguments of one headless gemini call reading the
// worktree dir. The CLI runs only in a folder it trusts, and in a trusted
// folder it applies that folder's .gemini settings, hooks included: so the
// call runs in a private empty folder of tribunal's (trusted for this call
// with --skip-trust, its settings written by tribunal) and reads the
// worktree as an included directory, whose settings the CLI does not load.
// Plan mode is the CLI's read-only mode; no extension and no MCP server is
// allowed.
func GeminiArgs(s Spec, dir string) []string {
	args := []string{"--prompt", geminiInstruction, "--output-format", "json",
		"--approval-mode", "plan", "--skip-trust",
		"--extensions", "none", "--allowed-mcp-server-names", "tribunal-none"}
	if dir != "" {
		args = append(args, "--include-directories", dir)
	}
	if s.Model != "" {
		args = append(args, "--model", s.Model)
	}
	return args
}

// geminiSettings is a settings file of a judge's gemini call: hooks off
// and, with a base_url, the API-key authentication that the base URL
// applies to (without it the CLI picks a "gateway" mode that its headless
// path rejects).
func geminiSettings(s Spec) []byte {
	settings := map[string]any{"hooksConfig": map[string]any{"enabled": false}}
	if s.BaseURL != "" {
		settings["security"] = map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}
	}
	data, _ := json.Marshal(settings)
	return data
}

func (g *geminiCLI) Run(ctx context.Context, c claude.Call) (claude.Result, error) {
	res := claude.Result{Envelope: true}
	cc, err := g.deps.startCLI(Gemini, g.deps.GeminiPath)
	if err != nil {
		return res, err
	}
	defer cc.done()
	work := filepath.Join(cc.dir, "work")
	if err := writeGeminiSettings(work, geminiSettings(Spec{})); err != nil {
		return res, err
	}
	env := map[string]string{}
	if g.spec.BaseURL != "" {
		// The CLI reads its authentication type from user-level settings
		// only; with an endpoint of the user's choosing the user's own
		// Google login does not apply, so the call gets a private home.
		home := filepath.Join(cc.dir, "home")
		if err := writeGeminiSettings(home, geminiSettings(g.spec)); err != nil {
			return res, err
		}
		env["GEMINI_CLI_HOME"] = home
		env["GOOGLE_GEMINI_BASE_URL"] = g.spec.BaseURL
	}
	if g.spec.APIKeyEnv != "" {
		env["GEMINI_API_KEY"] = g.deps.Getenv(g.spec.APIKeyEnv)
	}
	stdout, exit, err := cc.run(ctx, c, work, GeminiArgs(g.spec, c.Dir), withEnv(g.deps.Environ, env), g.spec.APIKeyEnv, cliPrompt(c), &res)
	if err != nil {
		return res, err
	}
	out := gjson.ParseBytes(stdout)
	// gjson validates recursively: the depth check comes first.
	valid := nesting.JSON(stdout) == nil && gjson.ValidBytes(stdout)
	if !valid {
		// A failed call prints its JSON error on stderr instead.
		out = lastJSON(res.Stderr)
	}
	switch msg := out.Get("error.message").String(); {
	case msg != "":
		return res, &CLIError{Program: Gemini, Message: msg}
	case exit != nil:
		return res, exit
	case !valid:
		return res, errors.New("gemini printed no JSON result")
	}
	out.Get("stats.models").ForEach(func(_, m gjson.Result) bool {
		RecordUsage(&res, m.Get("tokens.total"), m.Get("tokens.prompt"), m.Get("tokens.candidates"), gjson.Result{})
		res.NumTurns += int(max(m.Get("api.totalRequests").Int(), 0))
		return true
	})
	return conform(res, out.Get("response").String(), c.JSONSchema)
}

// writeGeminiSettings writes dir/.gemini/settings.json.
func writeGeminiSettings(dir string, data []byte) error {
	if err := os.MkdirAll(filepath.Join(dir, ".gemini"), 0o700); err != nil {
		return fmt.Errorf("create the gemini folder: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gemini", "settings.json"), data, 0o600); err != nil {
		return fmt.Errorf("write the gemini settings: %w", err)
	}
	return nil
}

// lastJSON returns the JSON object that ends text (the CLI prints a
// stack trace, then its error object), or an empty result.
func lastJSON(text string) gjson.Result {
	for i := strings.LastIndex(text, "\n{"); ; i = strings.LastIndex(text[:i], "\n{") {
		start := i + 1
		if i < 0 {
			start = 0
		}
		if tail := strings.TrimSpace(text[start:]); nesting.JSON([]byte(tail)) == nil && gjson.Valid(tail) {
			return gjson.Parse(tail)
		}
		if i <= 0 {
			return gjson.Result{}
		}
	}
}
