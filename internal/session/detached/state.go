package detached

import (
	"errors"
	"strconv"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// State is where a run is, as its files tell.
type State int

const (
	// Running: no exit file, and the pid file names a live process or
	// is not written yet (the run started a moment ago).
	Running State = iota
	// Exited: the exit file is written; Status.Code is the run's exit
	// status.
	Exited
	// Vanished: no exit file and the run's process is gone — killed, or
	// the machine restarted — or its pid file is unreadable.
	Vanished
)

func (s State) String() string {
	switch s {
	case Exited:
		return "exited"
	case Vanished:
		return "vanished"
	}
	return "running"
}

// ErrBadExit is an exit file that does not hold a number.
var ErrBadExit = errors.New("the exit file holds no exit status")

// Status is a run's state and, once it exited, its exit status.
type Status struct {
	State State
	Code  int
	// Err is ErrBadExit for an exit file without a number (State is
	// Exited).
	Err error
}

// Status reads the run's state from its files.
func (r Run) Status() Status {
	if data, err := store.ReadRegular(r.path(records.RunExitFile), smallFile); err == nil {
		code, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			return Status{State: Exited, Err: ErrBadExit}
		}
		return Status{State: Exited, Code: code}
	}
	if !r.alive() {
		return Status{State: Vanished}
	}
	return Status{State: Running}
}

func (r Run) alive() bool {
	data, err := store.ReadRegular(r.path(records.RunPIDFile), smallFile)
	if err != nil {
		return true // started a moment ago; the pid file comes next
	}
	id, err := procid.Parse(string(data))
	if err != nil {
		return false
	}
	// A bare pid (a file of an earlier version) is Unknown while any
	// process has it: presumed alive, as before start times were kept.
	return procid.Check(id) != procid.Gone
}

// Stopped is what Stop did.
type Stopped int

const (
	// Signalled: SIGTERM was sent to the run's own process.
	Signalled Stopped = iota
	// NotRunning: no pid, or its process is gone.
	NotRunning
	// Unproven: a process has the pid, but the pid file has no start
	// time to prove it is the run's; it was not signalled.
	Unproven
)

// Stop sends SIGTERM to the run's process, and only while the pid file's
// pid still names the process that started then (procid): a pid the
// kernel gave to another process after the run died is never signalled,
// nor one whose start time was not recorded. pid is the pid file's pid.
func (r Run) Stop() (what Stopped, pid int) {
	data, _ := store.ReadRegular(r.path(records.RunPIDFile), smallFile)
	id, err := procid.Parse(string(data))
	if err != nil {
		return NotRunning, 0
	}
	switch procid.Check(id) {
	case procid.Gone:
		return NotRunning, id.PID
	case procid.Unknown:
		return Unproven, id.PID
	}
	if !procid.Signal(id, syscall.SIGTERM) {
		return NotRunning, id.PID
	}
	return Signalled, id.PID
}
