//go:build !linux

package claude

import (
	"os/exec"
	"syscall"
	"time"
)

// childAttr puts the child in its own process group. Only Linux has a
// parent-death signal; elsewhere startWatchdog bounds a child whose parent
// was killed with SIGKILL.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// startWatchdog enforces the child's own deadline from inside its process
// group (see Watchdog).
func startWatchdog(cmd *exec.Cmd, after time.Duration) func() {
	return Watchdog(cmd.Process.Pid, after)
}

// deathSignalSupported says whether a child dies with its parent.
const deathSignalSupported = false
