//go:build !linux

package claude

import "syscall"

// childAttr puts the child in its own process group. Only Linux has a
// parent-death signal; elsewhere the watchdog (see Watchdog) ends a child
// whose parent was killed with SIGKILL, about a second later.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
