package proc

import (
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// watchdogGrace is how long past its deadline a child may live when its
// parent is gone: the parent's own kill comes first when it is alive.
const watchdogGrace = 2 * time.Second

// watchdog starts a small shell process that joins process group pgid
// and, once the deadline (after+watchdogGrace from now) has passed or
// process parent has gone, SIGKILLs the whole group, itself included. A
// parent killed with SIGKILL runs no handler; the parent-death signal
// (Linux only) takes the direct child with it but not the child's own
// subprocesses. The watchdog covers both: nothing in the group outlives
// its deadline, nor its parent by more than about a second, on any
// platform with a POSIX sh. The returned func ends the watchdog when the
// child finished in time. Without /bin/sh there is no watchdog (best
// effort).
func watchdog(pgid, parent int, after time.Duration) func() {
	secs := int((after + watchdogGrace + time.Second - 1) / time.Second)
	// The loop polls once a second: a TERM (the cancel) is handled when the
	// current sleep returns, so a finished child's watchdog lingers at most
	// a second (Run kills the group anyway once the child has exited).
	script := `trap 'exit 0' TERM
i=0
while [ "$i" -lt "$1" ] && kill -0 "$2" 2>/dev/null; do sleep 1; i=$((i+1)); done
kill -s KILL -- "-$3"`
	cmd := exec.Command("/bin/sh", "-c", script, "tribunal-watchdog",
		strconv.Itoa(secs), strconv.Itoa(parent), strconv.Itoa(pgid))
	// A fixed environment and directory: the loop's one external command
	// (sleep) must not resolve through a PATH entry that names the
	// repository under review.
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if cmd.Start() != nil {
		return func() {}
	}
	go cmd.Wait() // reap it whichever way it ends
	return func() { _ = cmd.Process.Signal(syscall.SIGTERM) }
}
