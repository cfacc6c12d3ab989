package claude

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// Proc is one child process run under the rules every model child of
// tribunal follows, whichever CLI it is (claude, codex, gemini): its own
// process group, killed whole at the deadline or when ctx ends, the
// recursion guard in its environment, stdout capped and only the tail of
// stderr kept.
type Proc struct {
	// Program names the CLI in messages ("claude", "codex", "gemini").
	Program string
	Path    string
	Args    []string
	// Env is the base environment; the recursion guard is added to it.
	Env   []string
	Dir   string
	Stdin string
	// Timeout bounds the run when > 0.
	Timeout time.Duration
}

// ProcResult is what a finished (or killed) child left behind.
type ProcResult struct {
	Stdout   []byte
	Stderr   string // tail
	ExitCode int
	Duration time.Duration
}

// RunProc runs p. The error is ErrNotFound (joined with the cause) when the
// executable could not be started, a *TimeoutError at the deadline, the
// context's error when ctx ended, an *ExitError for a non-zero status, or
// nil. The result is filled in every case, so that callers can still read
// what a failed child printed.
func RunProc(ctx context.Context, p Proc) (ProcResult, error) {
	if p.Path == "" {
		return ProcResult{}, ErrNotFound
	}
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, p.Path, p.Args...)
	cmd.Dir = p.Dir
	cmd.Env = ChildEnv(p.Env, 0)
	cmd.Stdin = strings.NewReader(p.Stdin)
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
		// Negative pid: the whole group. A CLI starts tool subprocesses of
		// its own, and a killed parent must not leave them running.
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	// A grandchild that inherited stdout could hold the pipe open after the
	// group kill raced with it; never wait on it for long.
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	runErr := runLocked(cmd, p.Timeout)
	res := ProcResult{Duration: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.String()}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && p.Timeout > 0 {
			return res, &TimeoutError{After: p.Timeout, Program: p.Program}
		}
		return res, ctx.Err()
	}
	var execErr *exec.Error
	if errors.As(runErr, &execErr) {
		return res, errors.Join(ErrNotFound, runErr)
	}
	var exitErr *exec.ExitError
	if errors.As(runErr, &exitErr) {
		return res, &ExitError{Code: res.ExitCode, Stderr: res.Stderr, Program: p.Program}
	}
	if runErr != nil {
		return res, fmt.Errorf("run %s: %w", program(p.Program), runErr)
	}
	return res, nil
}

// program is the CLI's name for messages; claude when unset.
func program(name string) string {
	if name == "" {
		return "claude"
	}
	return name
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
