package claude

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// Exec runs calls as real child processes.
type Exec struct {
	// Path is the claude executable (see Locate).
	Path string
	// Env is the base environment of every child; the recursion guard and
	// the output cap are added to it.
	Env []string
}

// Args returns the command-line arguments for c, without the program name.
// Every child is headless, prints one JSON result, runs no hooks and writes
// no transcript (a judge's session is not the user's to resume); a call
// with SandboxBash carries its sandbox in the same --settings layer. A
// call that does not trust its tree (every one but the actor's) reads the
// user's settings only and no MCP server: the judged tree's
// .claude/settings.json could otherwise point the judge at another
// endpoint (env.ANTHROPIC_BASE_URL), run a command for its key
// (apiKeyHelper), or start programs (hooks, .mcp.json).
func Args(c Call) []string {
	args := []string{"-p", "--output-format", "json",
		"--settings", Settings(c),
		"--no-session-persistence"}
	if !c.TrustTree {
		args = append(args, "--setting-sources", "user")
	}
	if c.Model != "" {
		args = append(args, "--model", c.Model)
	}
	if c.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(c.MaxTurns))
	}
	if c.SystemPrompt != "" {
		if c.SystemPromptMode == AppendSystemPrompt {
			args = append(args, "--append-system-prompt", c.SystemPrompt)
		} else {
			args = append(args, "--system-prompt", c.SystemPrompt)
		}
	}
	if c.Tools != nil {
		args = append(args, "--tools", strings.Join(c.Tools, ","))
	}
	if len(c.AllowedTools) > 0 {
		args = append(args, "--allowedTools", strings.Join(c.AllowedTools, ","))
	}
	if c.PermissionMode != "" {
		args = append(args, "--permission-mode", c.PermissionMode)
	}
	if c.StrictMCP || !c.TrustTree {
		args = append(args, "--strict-mcp-config")
	}
	if c.JSONSchema != "" {
		args = append(args, "--json-schema", c.JSONSchema)
	}
	return args
}

// ChildEnv returns base with the recursion guard set and, when maxTokens is
// positive, the CLI's output-token cap. Existing values of both are replaced
// so that a parent's own setting cannot leak through twice.
func ChildEnv(base []string, maxTokens int) []string {
	out := make([]string, 0, len(base)+2)
	for _, kv := range base {
		if strings.HasPrefix(kv, childenv.GuardEnv+"=") {
			continue
		}
		if maxTokens > 0 && strings.HasPrefix(kv, "CLAUDE_CODE_MAX_OUTPUT_TOKENS=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, childenv.GuardEnv+"=1")
	if maxTokens > 0 {
		out = append(out, "CLAUDE_CODE_MAX_OUTPUT_TOKENS="+strconv.Itoa(maxTokens))
	}
	return out
}

// DisableClaudeMDsEnv keeps every CLAUDE.md out of a child's context:
// the judged tree's would otherwise instruct its judge.
const DisableClaudeMDsEnv = "CLAUDE_CODE_DISABLE_CLAUDE_MDS"

// SubprocessEnvScrubEnv makes Claude Code strip its own credentials
// (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN, …)
// from the environment of the commands it runs. Observed with 2.1.332
// (e2e TestSandboxedBashHoldsNoSecret): the sandboxed Bash then sees no
// key, but only commands Claude Code knows to be read-only run without
// approval, which -p mode denies — the same Bash a GitHub Actions job
// gets by default, where the CLI turns the scrub on by itself.
const SubprocessEnvScrubEnv = "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB"

// CallEnv is the environment of c's child given the base environment:
// ChildEnv's, with CLAUDE.md files off unless c trusts its tree, and, in
// CI (base sets CI), Claude Code's own keys scrubbed from the commands of
// a sandboxed Bash: a CI job judges other people's code with a key that
// is not the user's own, so its Bash, already without network, reads no
// key either. The secrets claude does not need are dropped later, by
// RunProc.
func CallEnv(base []string, c Call) []string {
	env := ChildEnv(base, c.MaxOutputTokens)
	set := map[string]bool{}
	if !c.TrustTree {
		set[DisableClaudeMDsEnv] = true
	}
	if c.SandboxBash && InCI(base) {
		set[SubprocessEnvScrubEnv] = true
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	for _, k := range []string{DisableClaudeMDsEnv, SubprocessEnvScrubEnv} {
		if set[k] {
			out = append(out, k+"=1")
		}
	}
	return out
}

// InCI reports whether environ says it is a CI job (CIValue of its CI).
func InCI(environ []string) bool {
	v := ""
	for _, kv := range environ {
		if x, ok := strings.CutPrefix(kv, "CI="); ok {
			v = x
		}
	}
	return CIValue(v)
}

// CIValue reports whether a value of CI means a CI job: anything but "",
// "0" or "false", as every CI system sets it.
func CIValue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false"
}

// Run starts the child through RunProc (its own process group, killed
// whole at the deadline, with no secret but claude's own keys in its
// environment) and reads its JSON result.
func (e Exec) Run(ctx context.Context, c Call) (Result, error) {
	pr, runErr := RunProc(ctx, Proc{
		Program: "claude", Path: e.Path, Args: Args(c),
		Env: CallEnv(e.Env, c), Keep: secretenv.Keep("claude", e.Env), Dir: c.Dir,
		Stdin: c.Prompt, Timeout: c.Timeout,
	})
	res := Result{Duration: pr.Duration, Stderr: pr.Stderr, ExitCode: pr.ExitCode, Raw: string(pr.Stdout)}
	var exitErr *ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return res, runErr
	}
	parseErr := Parse(pr.Stdout, &res)
	if runErr != nil {
		if res.Envelope && res.IsError {
			// The CLI said why: prefer its words over "exit status 1".
			return res, &APIError{TerminalReason: res.TerminalReason, Message: res.Text}
		}
		return res, runErr
	}
	if parseErr != nil {
		return res, parseErr
	}
	if res.IsError {
		return res, &APIError{TerminalReason: res.TerminalReason, Message: res.Text}
	}
	if c.JSONSchema != "" && res.Envelope && res.Structured == nil {
		return res, ErrNoStructuredOutput
	}
	return res, nil
}

// Locate finds the claude executable, the one way every binary does:
// $TRIBUNAL_CLAUDE_BIN (bin) wins, else the user-level tribunal.claude.path
// (configured, asked only when bin is empty; nil means unset), else
// "claude" on the PATH of the given environment. It never consults
// repository files: the configuration drops that key from repository
// layers, and relative PATH entries are never searched (proc.LookPath).
// An explicit path that is not an executable file is an error, not a
// reason to search further.
func Locate(bin string, configured func() string, pathEnv string) (string, error) {
	explicit := bin
	if explicit == "" && configured != nil {
		explicit = configured()
	}
	return LocateProgram("claude", explicit, pathEnv)
}

// LocateProgram finds any CLI tribunal runs (claude, codex, gemini): an
// explicit path wins, else program on pathEnv by proc.LookPath.
func LocateProgram(program, explicit, pathEnv string) (string, error) {
	if explicit != "" {
		if proc.Executable(explicit) {
			return explicit, nil
		}
		// One sentence: errors.Join's two lines became "… not found not
		// an executable file: …" once a terminal line flattened them.
		return "", fmt.Errorf("%w: %s is not an executable file", ErrNotFound, strconv.Quote(explicit))
	}
	if p, ok := proc.LookPath(program, pathEnv); ok {
		return p, nil
	}
	if program != "claude" {
		return "", fmt.Errorf("%s executable not found on PATH", program)
	}
	return "", ErrNotFound
}
