// Package proc runs tribunal's child processes — the model CLIs and the
// command judges — each in its own process group, killed whole at its
// deadline, on cancellation, when it exits, and (parent-death signal,
// watchdog) when tribunal itself is killed.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Capture defaults.
const (
	// DefaultMaxStdout caps the stdout kept from its start. A judge's
	// result object is a few KiB; an actor's can be larger, but nothing
	// legitimate nears this.
	DefaultMaxStdout = 32 << 20
	// DefaultMaxTail is how much of a stream's end is kept when only its
	// tail matters (stderr, a command judge's report).
	DefaultMaxTail = 8 << 10
)

// PipeGrace is how long, once the child and its process group are gone,
// Run waits for the output pipes to close. Only a process that left the
// group on purpose (setsid, a daemon) can hold them open longer, and it is
// not waited for.
const PipeGrace = 2 * time.Second

// Cmd is one child process.
type Cmd struct {
	// Path is the executable, as LookPath or Resolve found it.
	Path string
	// Argv0 is the argv[0] the child sees; "" means Path.
	Argv0 string
	// Args are the arguments after argv[0].
	Args []string
	// Env is the child's whole environment, the recursion guard included:
	// the caller builds it. Nothing is inherited from this process, even
	// when Env is empty.
	Env []string
	// Dir is the working directory; "" means this process's.
	Dir string
	// Stdin is written to the child's standard input, which then closes;
	// "" gives it /dev/null.
	Stdin string
	// Timeout bounds the run when > 0.
	Timeout time.Duration
	// Combined sends stdout and stderr to one pipe, interleaved as on a
	// terminal, and keeps only its tail (Result.Output). Otherwise stdout
	// is kept from its start (Result.Stdout) and stderr's tail apart.
	Combined bool
	// MaxStdout caps Result.Stdout; 0 means DefaultMaxStdout.
	MaxStdout int
	// MaxTail caps Result.Stderr, or Result.Output when Combined; 0 means
	// DefaultMaxTail.
	MaxTail int
	// Interrupt, when > 0, is the grace a child that winds down by
	// itself on SIGTERM (a tribunal-session: it records itself as
	// aborted and stops its own children) is given: at the deadline or
	// on cancellation it is sent SIGTERM, and its group is killed only if
	// it is still running Interrupt later. 0 kills the group at once.
	Interrupt time.Duration
	// StderrTee, when set, is also given the child's stderr as it arrives
	// (not Combined): a child whose progress someone watches while its
	// stderr is still kept for its error. A failing tee drops nothing
	// from Result.Stderr.
	StderrTee io.Writer
}

// Result is what a finished, killed or unstartable child left behind.
type Result struct {
	Stdout []byte // the first MaxStdout bytes (not Combined)
	Stderr string // the last MaxTail bytes (not Combined)
	Output string // the last MaxTail bytes of both streams (Combined)
	// ExitCode is the exit status, -1 when a signal ended the child, 0
	// when it never started.
	ExitCode int
	// Signal names the signal that ended the child, if one did.
	Signal   string
	Duration time.Duration
}

// StartError reports a child that could not be started (the executable
// vanished, is not executable, or the working directory is missing).
type StartError struct{ Err error }

func (e *StartError) Error() string { return "start: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// TimeoutError reports a child killed at its own deadline (Cmd.Timeout).
type TimeoutError struct{ After time.Duration }

// Error says how long the child was given, which is what a user tunes.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s and was killed", e.After)
}

// Run runs c in its own process group and waits for it. The group is
// killed whole at the deadline or when ctx ends — a CLI's tool
// subprocesses and a test suite's servers included — and, once the child
// has exited by itself, whatever it left running there is killed too, so
// that nothing tribunal starts outlives its call nor holds its output
// open. On Linux the child gets the parent-death signal; wherever /bin/sh
// exists a watchdog in its group kills the group when this process dies
// or the deadline is 2 s past (see watchdog).
//
// The error is a *StartError when the child could not start, ctx's error
// when ctx ended first, a *TimeoutError at the deadline, another error if
// waiting failed, and nil when the child ran to its end, whatever its
// exit status. The Result is filled in every case, so that a caller can
// still read what a failed child printed.
func Run(ctx context.Context, c Cmd) (Result, error) {
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()

	streams, err := newPipes(c)
	if err != nil {
		return Result{}, fmt.Errorf("create the child's pipes: %w", err)
	}
	cmd := exec.CommandContext(runCtx, c.Path, c.Args...)
	if c.Argv0 != "" {
		cmd.Args[0] = c.Argv0
	}
	cmd.Dir = c.Dir
	cmd.Env = append([]string{}, c.Env...)
	// *os.File streams: the child writes to them directly, so Wait returns
	// as soon as it exits, not when the last holder of a pipe closes it.
	cmd.Stdout, cmd.Stderr = streams.childOut, streams.childErr
	if streams.childIn != nil { // a nil *os.File in the interface would not mean /dev/null
		cmd.Stdin = streams.childIn
	}
	cmd.SysProcAttr = childAttr()
	stopCancel := setCancel(cmd, c.Interrupt)

	start := time.Now()
	startErr, waitErr := startAndWait(cmd, c.Timeout, streams.closeChildEnds)
	stopCancel()
	res := Result{Duration: time.Since(start)}
	if startErr != nil {
		streams.finish(0)
		return res, &StartError{Err: startErr}
	}
	_ = killGroup(cmd) // strays; ESRCH when there are none
	streams.finish(PipeGrace)
	streams.fill(&res)
	if st := cmd.ProcessState; st != nil {
		res.ExitCode = st.ExitCode()
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal().String()
		}
	}
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return res, &TimeoutError{After: c.Timeout}
	case waitErr != nil && !isExit(waitErr):
		return res, fmt.Errorf("wait: %w", waitErr)
	}
	return res, nil
}

// startAndWait starts cmd and waits for it from a goroutine locked to its
// OS thread. Linux delivers the parent-death signal when the *thread* that
// forked the child exits, and the Go runtime may retire an idle thread; a
// locked thread lives until the goroutine unlocks it, after the wait.
// started runs once the child exists (or failed to), to close the
// parent's copies of the child's pipe ends.
func startAndWait(cmd *exec.Cmd, deadline time.Duration, started func()) (startErr, waitErr error) {
	type outcome struct{ start, wait error }
	done := make(chan outcome, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		started()
		if err != nil {
			done <- outcome{start: err}
			return
		}
		stop := func() {}
		if deadline > 0 {
			stop = watchdog(cmd.Process.Pid, os.Getpid(), deadline)
		}
		err = cmd.Wait()
		stop()
		done <- outcome{wait: err}
	}()
	o := <-done
	return o.start, o.wait
}

// setCancel sets what the end of the run's context does to cmd: kill its
// group at once, or with a grace, first ask the child to stop (SIGTERM)
// and kill the group if it is still there grace later. The returned func
// drops a pending kill once the child has been waited for.
func setCancel(cmd *exec.Cmd, grace time.Duration) (stop func()) {
	if grace <= 0 {
		cmd.Cancel = func() error { return killGroup(cmd) }
		cmd.WaitDelay = PipeGrace
		return func() {}
	}
	var (
		mu    sync.Mutex
		timer *time.Timer
		done  bool
	)
	cmd.Cancel = func() error {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			timer = time.AfterFunc(grace, func() { _ = killGroup(cmd) })
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return killGroup(cmd)
		}
		return nil
	}
	// exec's own kill (the process alone) comes only after the group's.
	cmd.WaitDelay = grace + PipeGrace
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done = true
		if timer != nil {
			timer.Stop()
		}
	}
}

// killGroup kills the child's whole process group (negative pid).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return cmd.Process.Kill()
	}
	return nil
}

// isExit reports whether err only says the child exited unsuccessfully.
func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}
