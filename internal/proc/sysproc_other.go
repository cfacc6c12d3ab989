//go:build !linux

package proc

import "syscall"

// childAttr puts the child in its own process group. Only Linux has a
// parent-death signal; elsewhere the watchdog ends a child whose parent
// was killed with SIGKILL, about a second later.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
