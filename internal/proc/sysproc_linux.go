//go:build linux

package proc

import "syscall"

// childAttr puts the child in its own process group (so the whole group,
// tool subprocesses included, can be killed at once) and asks the kernel
// to SIGKILL it when the thread that started it dies: a parent killed with
// SIGKILL, which no handler sees, then takes its child with it at once
// (the watchdog follows for the rest of the group). Run starts the child
// from a goroutine locked to its OS thread, so that thread lives exactly
// as long as the wait.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
