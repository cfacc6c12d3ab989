package claude

import (
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// watchdogGrace is how long past its deadline a child may live when its
// parent is gone: the parent's own kill comes first when it is alive.
const watchdogGrace = 2 * time.Second

// Watchdog starts a small shell process that joins process group pgid and
// SIGKILLs the whole group, itself included, after+watchdogGrace from now.
// It is the deadline's enforcer when the parent was killed with SIGKILL on a
// platform without a parent-death signal: nothing in the group can then
// outlive the deadline it was given. The returned func ends the watchdog
// when the child finished in time (a group kill by the parent ends it too).
// It is best-effort: without /bin/sh there is no watchdog.
func Watchdog(pgid int, after time.Duration) func() {
	secs := int((after + watchdogGrace + time.Second - 1) / time.Second)
	// The sleep runs in the background so that a TERM (the cancel) can end
	// it too instead of leaving it to sleep out its time.
	cmd := exec.Command("/bin/sh", "-c",
		`trap 'kill $! 2>/dev/null; exit 0' TERM; sleep "$1" & wait $!; kill -s KILL -- "-$2"`, "watchdog",
		strconv.Itoa(secs), strconv.Itoa(pgid))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if cmd.Start() != nil {
		return func() {}
	}
	go cmd.Wait() // reap it whichever way it ends
	return func() { _ = cmd.Process.Signal(syscall.SIGTERM) }
}
