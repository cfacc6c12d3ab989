package stophook

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
)

// exitGrace is how long past its deadline a detached judge may take to
// cancel its model call and write down that it did, before its watchdog
// ends the process outright.
const exitGrace = 3 * time.Second

// runWorker is the detached judge: `stop-gate judge [--locked] JOB`. It
// owns the session lock for its lifetime (inherited, or taken over from an
// older judge), runs the model call within the job's deadline, records the
// verdict or the failure, and exits. Nothing reads its stdout or stderr;
// every outcome lands in the session's history instead.
func runWorker(ctx context.Context, d Deps, args []string) int {
	locked := len(args) == 2 && args[0] == lockedFlag
	if locked {
		// First of all, before any child (git, the model CLI, proc's
		// watchdog) exists: the inherited lock must not pass on to them.
		// A descendant that outlives the judge would keep the session
		// locked after the judge is gone.
		syscall.CloseOnExec(inheritedLock)
		args = args[1:]
	}
	if len(args) != 1 {
		d.Errorf("usage: stop-gate %s [%s] JOB", JudgeCommand, lockedFlag)
		return 2
	}
	j, err := readJob(args[0])
	defer os.Remove(args[0])
	if err != nil {
		d.Errorf("%v", err)
		return 1
	}
	d = withRedactor(d, j)
	// The watchdog: whatever the judge is blocked on, the process ends
	// shortly after its deadline (its model call is killed with it, by the
	// context first and by the parent-death signal at the latest).
	ctx, cancel := context.WithDeadline(ctx, j.Deadline)
	defer cancel()
	watchdog := time.AfterFunc(time.Until(j.Deadline)+exitGrace, func() { os.Exit(1) })
	defer watchdog.Stop()

	w := &worker{Deps: d, j: j}
	path := lockPath(j.ProjectDir, j.SessionID)
	me := j.info(procid.Self(), "detached", d.Now())
	var lock *os.File
	if locked {
		lock = adopt(path, me, j.Deadline, d.Now)
	}
	if lock == nil {
		lock, err = acquire(path, me, j.Deadline, d.Now)
		if err == errDuplicate || err == errSuperseded {
			return 0
		}
		if err != nil {
			w.fail(failedBefore(err))
			return 0
		}
	}
	defer lock.Close()
	os.Remove(args[0])
	w.judgeAndRecord(ctx)
	return 0
}

// adopt makes the lock inherited from the hook this judge's: the
// descriptor must be a regular file whose flock this process has (it
// shares the hook's open file, so the flock is already its own) and that
// path still names — a takeover may have replaced it since. nil means
// the judge must acquire the lock like any other.
func adopt(path string, me lockInfo, until time.Time, now func() time.Time) *os.File {
	var st syscall.Stat_t
	if syscall.Fstat(inheritedLock, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil // not a lock this process may close
	}
	f := os.NewFile(inheritedLock, "session lock")
	if flockNB(f) == nil {
		if ok, err := claim(f, path, me, until, now); ok && err == nil {
			return f
		}
	}
	f.Close()
	return nil
}

// worker is one detached judge.
type worker struct {
	Deps
	j job
}

func (w *worker) warn(format string, args ...any) { w.JudgeWarnf(format, args...) }

// judgeAndRecord asks the judge and records what came of it.
func (w *worker) judgeAndRecord(ctx context.Context) {
	started := w.Now()
	adv, res, err := judge(ctx, w.Deps, w.j)
	if errors.Is(err, errBudget) {
		w.warn("%v", err) // no judge ran: nothing to record
		return
	}
	if err != nil {
		w.fail(failure(ctx, res, err, w.Now().Sub(started)))
		return
	}
	rec := newRecorder(w.Deps, w.j, w.warn)
	rec.verdict(adv, res, nil)
	rec.markPending()
}
