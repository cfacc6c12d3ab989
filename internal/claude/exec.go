package claude

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// maxStdout caps what we keep of a child's stdout. A judge's result object
// is a few KiB; an actor's can be larger, but nothing legitimate nears this.
const maxStdout = 32 << 20

// maxStderr is how much of a child's stderr tail we keep for messages.
const maxStderr = 8 << 10

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
// no transcript (a judge's session is not the user's to resume).
func Args(c Call) []string {
	args := []string{"-p", "--output-format", "json",
		"--settings", DisableHooksSettings,
		"--no-session-persistence"}
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
	if c.StrictMCP {
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
		if strings.HasPrefix(kv, GuardEnv+"=") {
			continue
		}
		if maxTokens > 0 && strings.HasPrefix(kv, "CLAUDE_CODE_MAX_OUTPUT_TOKENS=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, GuardEnv+"=1")
	if maxTokens > 0 {
		out = append(out, "CLAUDE_CODE_MAX_OUTPUT_TOKENS="+strconv.Itoa(maxTokens))
	}
	return out
}

// Run starts the child in its own process group (see RunProc) and reads
// its JSON result.
func (e Exec) Run(ctx context.Context, c Call) (Result, error) {
	pr, runErr := RunProc(ctx, Proc{
		Program: "claude", Path: e.Path, Args: Args(c),
		Env: ChildEnv(e.Env, c.MaxOutputTokens), Dir: c.Dir,
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

// Locate finds the claude executable: an explicit path (from the
// environment or user-level configuration) wins, else "claude" on the PATH
// of the given environment. It never consults repository files: relative
// PATH entries (".", an empty entry, "bin") are skipped, because a hook runs
// in the repository under review and would otherwise execute a "claude" that
// the repository ships (the reasoning of os/exec's ErrDot).
func Locate(explicit, pathEnv string) (string, error) {
	return LocateProgram("claude", explicit, pathEnv)
}

// LocateProgram is Locate for any CLI tribunal runs (codex, gemini).
func LocateProgram(program, explicit, pathEnv string) (string, error) {
	if explicit != "" {
		if isExecutable(explicit) {
			return explicit, nil
		}
		return "", errors.Join(ErrNotFound, errors.New("not an executable file: "+strconv.Quote(explicit)))
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, program)
		if isExecutable(p) {
			return p, nil
		}
	}
	if program != "claude" {
		return "", fmt.Errorf("%s executable not found on PATH", program)
	}
	return "", ErrNotFound
}

// capBuffer keeps the first max bytes and discards the rest.
type capBuffer struct {
	bytes.Buffer
	max int
}

func (b *capBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}

// tailBuffer keeps the last max bytes.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string { return string(b.buf) }
