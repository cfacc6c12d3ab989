package stophook

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
)

// maxTakeovers bounds the takeovers of one acquire that skip its wait and
// its deadline: only a process that keeps planting abandoned locks could
// need more than one.
const maxTakeovers = 3

// acquire takes the session lock for me, superseding an older holder: a
// holder judging the same state makes it errDuplicate, a holder judging a
// newer Stop makes it errSuperseded, an older holder gets SIGTERM (it
// cancels its judge and records that) and, if it is still there termGrace
// later or past its own deadline, SIGKILL. A holder is signalled only while
// procid proves it the process the info names; one that cannot be proven
// either way is waited for; a lock whose holder is provably gone is taken
// over at once (takeOver), however little time is left. It gives up at
// until.
func acquire(path string, me lockInfo, until time.Time, now func() time.Time) (*os.File, error) {
	var termAt time.Time
	delay := time.Millisecond
	takeovers := 0
	for {
		f, held, err := tryLock(path, me, until, now)
		if err != nil {
			return nil, err
		}
		if f != nil {
			return f, nil
		}
		t := now()
		removed := false
		info, ok := readInfo(held)
		state := procid.Unknown
		if ok {
			state = procid.Check(info.holder())
		}
		switch {
		case !ok:
			// Being written, or damaged: look again.
		case state == procid.Gone:
			removed, err = takeOver(held, path, until, now)
		case info.Fingerprint == me.Fingerprint && t.Before(info.Deadline):
			err = errDuplicate
		case info.Queued.After(me.Queued):
			err = errSuperseded
		case state != procid.Alive:
			// Not provably the holder (no start time recorded, or none
			// readable here): never signalled; the kernel releases the
			// lock when it ends, or until passes.
		case termAt.IsZero():
			termAt = t
			procid.Signal(info.holder(), syscall.SIGTERM)
		case t.Sub(termAt) > termGrace || t.After(info.Deadline.Add(staleGrace)):
			procid.Signal(info.holder(), syscall.SIGKILL)
		}
		held.Close()
		if err != nil {
			return nil, err
		}
		if removed && takeovers < maxTakeovers {
			// The fresh lock is free: take it now, not after a wait.
			takeovers++
			continue
		}
		if !t.Before(until) {
			return nil, fmt.Errorf("the session's previous judge still holds %q", path)
		}
		time.Sleep(delay)
		delay = min(delay*2, 50*time.Millisecond)
	}
}
