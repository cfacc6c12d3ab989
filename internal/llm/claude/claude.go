// Package claude runs `claude -p` child processes for tribunal's judges,
// actor and meta-judge and reads their results.
package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// DisableHooksSettings is passed with --settings to every child so that the
// child runs none of the user's, project's or plugins' hooks: the second,
// independent recursion guard.
const DisableHooksSettings = `{"disableAllHooks":true}`

// SystemPromptMode says how Call.SystemPrompt reaches the child.
type SystemPromptMode int

const (
	// ReplaceSystemPrompt passes --system-prompt: the role prompt is the
	// whole system prompt (judges, meta-judge, advisory judge).
	ReplaceSystemPrompt SystemPromptMode = iota
	// AppendSystemPrompt passes --append-system-prompt, keeping Claude Code's
	// own coding instructions (the actor, who edits files with tools).
	AppendSystemPrompt
)

// Call describes one `claude -p` invocation.
type Call struct {
	Role             string // "actor", "judge", "meta" or "stop": for messages only
	Prompt           string // sent on stdin
	SystemPrompt     string
	SystemPromptMode SystemPromptMode
	Model            string // --model when non-empty
	JSONSchema       string // --json-schema when non-empty
	// Tools restricts the built-in tools (--tools). A nil slice leaves the
	// default set; an empty non-nil slice means no tools at all.
	Tools []string
	// AllowedTools pre-approves tools, which -p mode otherwise denies.
	AllowedTools   []string
	PermissionMode string
	// TrustTree lets the child read the configuration of the tree it runs
	// in: project and local settings, .mcp.json, CLAUDE.md. Only the actor
	// sets it — it is the user's agent in the user's own task tree. Every
	// other child (a judge, the meta-judge, a verification, a pairwise or
	// Stop-hook judge) is isolated (see Args, CallEnv): the tree it judges
	// may be a stranger's, and is never trusted to configure its judge.
	TrustTree bool
	// StrictMCP passes --strict-mcp-config without any --mcp-config: the
	// child gets no MCP servers at all, so a repository's MCP configuration
	// cannot add tools (or start programs) in a judge's session.
	StrictMCP bool
	// SandboxBash runs the child's Bash commands inside Claude Code's own
	// sandbox, confined to Dir with no network (Settings); set it with
	// WithSandboxedBash.
	SandboxBash     bool
	MaxTurns        int // --max-turns when > 0
	MaxOutputTokens int // CLAUDE_CODE_MAX_OUTPUT_TOKENS when > 0
	Dir             string
	Timeout         time.Duration
}

// Result is what one child reported. A Result is returned alongside most
// errors too, so that cost and duration of a failed call are still counted.
type Result struct {
	// Envelope is true when stdout was a `--output-format json` result
	// object; false when the child printed plain text (older CLIs and
	// wrappers), in which case Text is the whole stdout.
	Envelope       bool
	Text           string
	Structured     json.RawMessage // nil when absent or null
	IsError        bool
	Subtype        string
	TerminalReason string
	CostUSD        *float64
	Tokens         *int
	// InputTokens and OutputTokens split Tokens when the answer said how
	// (the OpenTelemetry GenAI conventions report the two apart).
	InputTokens, OutputTokens *int
	NumTurns                  int
	Duration                  time.Duration // wall time measured by us
	ExitCode                  int
	Stderr                    string // tail of the child's stderr
	// Raw is the child's stdout as printed (up to the capture cap), kept
	// as evidence of what the model actually answered.
	Raw string
}

// Runner runs one call. The production implementation is Exec; tests pass
// in-memory fakes.
type Runner interface {
	Run(ctx context.Context, c Call) (Result, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, c Call) (Result, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, c Call) (Result, error) { return f(ctx, c) }

// ErrNotFound means no claude executable could be located.
var ErrNotFound = errors.New("claude executable not found")

// ErrNoOutput means the child exited 0 and printed nothing.
var ErrNoOutput = errors.New("claude printed nothing")

// ErrNoStructuredOutput means a --json-schema run succeeded without calling
// the StructuredOutput tool (the CLI reports success with
// structured_output null in that case).
var ErrNoStructuredOutput = errors.New("claude returned no structured output")

// TimeoutError reports a child killed at its deadline.
type TimeoutError struct {
	After   time.Duration
	Program string // "" means claude
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s did not finish within %s and was killed", program(e.Program), e.After)
}

// ExitError reports a non-zero exit status.
type ExitError struct {
	Code    int
	Stderr  string
	Program string // "" means claude
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("%s exited with status %d", program(e.Program), e.Code)
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += ": " + lastLine(s)
	}
	return msg
}

// APIError reports a result with is_error set: the CLI's own failure
// (API error, max turns), whatever its subtype says.
type APIError struct {
	TerminalReason string
	Message        string
}

func (e *APIError) Error() string {
	msg := "claude reported an error"
	if e.TerminalReason != "" {
		msg += " (" + firstLine(e.TerminalReason, 60) + ")"
	}
	if m := strings.TrimSpace(e.Message); m != "" {
		msg += ": " + firstLine(m, 200)
	}
	return msg
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return firstLine(s, 200)
}

// firstLine keeps the first line of s, cut to max bytes on a character
// boundary. These messages quote what the CLI and the model printed and end
// up on a terminal, so control characters (colours, cursor moves, a
// clipboard write through OSC 52, a carriage return that overprints) and
// bidi controls become spaces.
func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = safetext.Head(s, max) + "…"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
}
