package claude

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// Run starts the child in its own process group and, at the deadline or
// when ctx ends, kills the whole group: claude starts tool subprocesses of
// its own, and a killed parent must not leave them running.
func (e Exec) Run(ctx context.Context, c Call) (Result, error) {
	if e.Path == "" {
		return Result{}, ErrNotFound
	}
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, e.Path, Args(c)...)
	cmd.Dir = c.Dir
	cmd.Env = ChildEnv(e.Env, c.MaxOutputTokens)
	cmd.Stdin = strings.NewReader(c.Prompt)
	var stdout capBuffer
	stdout.max = maxStdout
	var stderr tailBuffer
	stderr.max = maxStderr
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.SysProcAttr = childAttr()
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		// Negative pid: the whole group.
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	// A grandchild that inherited stdout could hold the pipe open after the
	// group kill raced with it; never wait on it for long.
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	runErr := runLocked(cmd, c.Timeout)
	res := Result{Duration: time.Since(start), Stderr: stderr.String()}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && c.Timeout > 0 {
			return res, &TimeoutError{After: c.Timeout}
		}
		return res, ctx.Err()
	}
	var execErr *exec.Error
	if errors.As(runErr, &execErr) {
		return res, errors.Join(ErrNotFound, runErr)
	}
	parseErr := Parse(stdout.Bytes(), &res)
	if runErr != nil {
		var exitErr *exec.ExitError
		if errors.As(runErr, &exitErr) && res.Envelope && res.IsError {
			// The CLI said why: prefer its words over "exit status 1".
			return res, &APIError{TerminalReason: res.TerminalReason, Message: res.Text}
		}
		if errors.As(runErr, &exitErr) {
			return res, &ExitError{Code: res.ExitCode, Stderr: res.Stderr}
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

// runLocked starts and waits for cmd from a goroutine locked to its OS
// thread. Linux delivers the parent-death signal when the *thread* that
// forked the child exits, and the Go runtime may retire an idle thread; a
// locked thread lives until the goroutine unlocks it, after the wait.
// Where there is no such signal, a watchdog enforces the deadline instead.
func runLocked(cmd *exec.Cmd, deadline time.Duration) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			done <- err
			return
		}
		stop := func() {}
		if deadline > 0 {
			stop = startWatchdog(cmd, deadline)
		}
		err := cmd.Wait()
		stop()
		done <- err
	}()
	return <-done
}

// Locate finds the claude executable: an explicit path (from the
// environment or user-level configuration) wins, else "claude" on the PATH
// of the given environment. It never consults repository files: relative
// PATH entries (".", an empty entry, "bin") are skipped, because a hook runs
// in the repository under review and would otherwise execute a "claude" that
// the repository ships (the reasoning of os/exec's ErrDot).
func Locate(explicit, pathEnv string) (string, error) {
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
		p := filepath.Join(dir, "claude")
		if isExecutable(p) {
			return p, nil
		}
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
