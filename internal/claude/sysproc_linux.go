//go:build linux

package claude

import (
	"os/exec"
	"syscall"
	"time"
)

// childAttr puts the child in its own process group (so the whole group,
// tool subprocesses included, can be killed at once) and asks the kernel to
// SIGKILL it when the thread that started it dies: a parent killed with
// SIGKILL, which no handler sees, then takes its child with it. Run starts
// the child from a goroutine locked to its OS thread, so that thread lives
// exactly as long as the wait.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// startWatchdog is not needed on Linux: the parent-death signal covers a
// killed parent, and the context covers the deadline of a live one.
func startWatchdog(*exec.Cmd, time.Duration) func() { return func() {} }

// deathSignalSupported says whether a child dies with its parent.
const deathSignalSupported = true
