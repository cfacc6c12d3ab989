// Package procid names a process by its pid and its start time, so that a
// pid kept in a file is signalled only while it still names the process
// that wrote it.
package procid

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ID is a process as another process can name it across time: a pid alone
// is recycled by the kernel once its process has died and been reaped, the
// pair of pid and start time is not (two processes cannot start at the
// same pid in the same clock tick).
type ID struct {
	PID int
	// Start is the process's start time in the platform's own unit (Linux:
	// clock ticks since boot; macOS: microseconds since the epoch); 0 means
	// unknown, and an ID with an unknown start is never proven alive.
	Start uint64
}

// State is what can be proven about an ID now.
type State int

const (
	// Unknown: a process with the pid exists and it cannot be told
	// whether it is the one the ID names (no start time recorded, or none
	// readable on this platform). It must be neither signalled nor
	// presumed dead.
	Unknown State = iota
	// Alive: the pid runs with the recorded start time: the same process.
	Alive
	// Gone: no process has the pid, it is a zombie (it holds no
	// descriptor any more), or the pid now names a process that started at
	// another time (it was recycled).
	Gone
)

func (s State) String() string {
	switch s {
	case Alive:
		return "alive"
	case Gone:
		return "gone"
	}
	return "unknown"
}

// Of names the process pid as it is now; Start is 0 when its start time
// cannot be read.
func Of(pid int) ID {
	st, _, err := start(pid)
	if err != nil {
		return ID{PID: pid}
	}
	return ID{PID: pid, Start: st}
}

// Self names this process.
func Self() ID { return Of(os.Getpid()) }

// String is id as a file keeps it: "PID START" (START 0 when unknown).
func (id ID) String() string {
	return strconv.Itoa(id.PID) + " " + strconv.FormatUint(id.Start, 10)
}

// Parse reads String's form. A bare pid, as files written before start
// times were kept hold, gives Start 0: an ID Check never proves alive.
func Parse(s string) (ID, error) {
	f := strings.Fields(s)
	if len(f) < 1 || len(f) > 2 {
		return ID{}, fmt.Errorf("%q is not a process id", s)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return ID{}, fmt.Errorf("%q is not a process id", s)
	}
	id := ID{PID: pid}
	if len(f) == 2 {
		if id.Start, err = strconv.ParseUint(f[1], 10, 64); err != nil {
			return ID{}, fmt.Errorf("%q is not a process id", s)
		}
	}
	return id, nil
}

// Check reports whether id still names a running process.
func Check(id ID) State {
	if id.PID <= 0 {
		return Unknown
	}
	if exists(id.PID) == gone {
		return Gone
	}
	st, zombie, err := start(id.PID)
	switch {
	case err != nil:
		// It may have exited between the probe and the read.
		if exists(id.PID) == gone {
			return Gone
		}
		return Unknown
	case zombie:
		return Gone
	case id.Start == 0:
		return Unknown
	case st != id.Start:
		return Gone
	}
	return Alive
}

type presence int

const (
	present presence = iota
	gone
)

// exists asks the kernel whether any process has pid: signal 0 checks
// without sending anything, and only ESRCH proves absence (EPERM is a
// process of another user).
func exists(pid int) presence {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return gone
	}
	return present
}

// Signal sends sig to the process id names, and only if Check proves that
// process alive; it reports whether the signal was sent. On Linux the
// process is first pinned by a pidfd (os.FindProcess) and signalled
// through it, so the pid cannot be recycled between the check and the
// signal: a pidfd names one process, never its successor. Elsewhere a
// window of a few microseconds remains between check and kill(2), in which
// the checked process would have to die, be reaped and its pid be reused.
func Signal(id ID, sig syscall.Signal) bool {
	if id.PID <= 1 || id.PID == os.Getpid() {
		// kill(2) reads 0 and negative pids as process groups or every
		// process; 1 is init; this process is never its own target.
		return false
	}
	p, err := os.FindProcess(id.PID)
	if err != nil {
		return false
	}
	defer p.Release()
	if Check(id) != Alive {
		return false
	}
	return p.Signal(sig) == nil
}
