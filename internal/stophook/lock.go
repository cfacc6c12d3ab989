package stophook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// JudgesDir is the directory, inside a project directory, that holds the
// per-session judge locks and the jobs handed to detached judges.
const JudgesDir = "judges"

// The session lock: one file per session, judges/<sid>.lock. Whoever judges
// the session holds an exclusive flock on it for as long as it judges, and
// keeps a lockInfo in it. flock is released by the kernel when the holder
// dies, however it dies, so a crashed judge never blocks a later one; a
// holder that is alive but past its deadline (stopped, hung) is killed by
// the next judge that wants the lock.

// lockInfo is what the holder of a session lock says about itself.
type lockInfo struct {
	PID int `json:"pid"`
	// Started is when the holder took the lock; Deadline is when it must be
	// done, recording included.
	Started  time.Time `json:"started"`
	Deadline time.Time `json:"deadline"`
	// Fingerprint is the tree state being judged; Queued is when the Stop
	// that asked for this judgement arrived (a later Stop supersedes).
	Fingerprint string    `json:"fingerprint"`
	Queued      time.Time `json:"queued"`
	Mode        string    `json:"mode"`
}

// staleGrace is how long past its deadline a holder may keep the lock
// before the next judge kills it.
const staleGrace = 5 * time.Second

// termGrace is how long a superseded holder gets, after SIGTERM, to cancel
// its judge and record the cancellation before it is killed.
const termGrace = 5 * time.Second

// errDuplicate means a judge for the same state already holds the lock.
var errDuplicate = errors.New("a judge of this state is already running")

// errSuperseded means the holder judges a newer Stop than ours.
var errSuperseded = errors.New("a newer turn is already being judged")

// lockPath names the session lock of sid in projectDir.
func lockPath(projectDir, sid string) string {
	return filepath.Join(projectDir, JudgesDir, store.SanitizeSessionID(sid)+".lock")
}

// openLock opens (creating) the lock file without following a symlink and
// without blocking on a FIFO planted in its place (store.OpenInPlace).
func openLock(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create %q: %w", filepath.Dir(path), err)
	}
	f, err := store.OpenInPlace(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open session lock: %w", err)
	}
	return f, nil
}

// tryLock takes the lock at once or reports that it is held.
func tryLock(path string) (f *os.File, held bool, err error) {
	f, err = openLock(path)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err == nil {
		return f, false, nil
	}
	f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, true, nil
	}
	return nil, false, fmt.Errorf("lock %q: %w", path, err)
}

// writeInfo replaces the lock file's content with info. The holder writes
// it in one write at offset 0 after truncating; a reader that catches the
// moment in between sees no valid info and simply looks again.
func writeInfo(f *os.File, info lockInfo) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	return err
}

// readInfo reads the holder's info; ok is false when there is none yet.
func readInfo(path string) (lockInfo, bool) {
	data, ok := store.ReadOptional(path, 4096, func(string) {})
	if !ok {
		return lockInfo{}, false
	}
	var info lockInfo
	if json.Unmarshal(data, &info) != nil || info.PID <= 0 {
		return lockInfo{}, false
	}
	return info, true
}

// acquire takes the session lock for me, superseding an older holder: a
// holder judging the same state makes it errDuplicate, a holder judging a
// newer Stop makes it errSuperseded, an older holder gets SIGTERM (it
// cancels its judge and records that) and, if it is still there termGrace
// later or past its own deadline, SIGKILL. It gives up at until.
func acquire(path string, me lockInfo, until time.Time, now func() time.Time) (*os.File, error) {
	var termAt time.Time
	delay := time.Millisecond
	for {
		f, held, err := tryLock(path)
		if err != nil {
			return nil, err
		}
		if !held {
			if err := writeInfo(f, me); err != nil {
				f.Close()
				return nil, fmt.Errorf("write session lock: %w", err)
			}
			return f, nil
		}
		t := now()
		if info, ok := readInfo(path); ok {
			switch {
			case info.Fingerprint == me.Fingerprint && t.Before(info.Deadline):
				return nil, errDuplicate
			case info.Queued.After(me.Queued):
				return nil, errSuperseded
			case !signalable(info.PID):
				// A damaged description (pid 0 would signal our own process
				// group, -1 every process we may signal) or this very
				// process: never signal it; wait for the kernel to release
				// the lock, up to until.
			case termAt.IsZero():
				termAt = t
				_ = syscall.Kill(info.PID, syscall.SIGTERM)
			case t.Sub(termAt) > termGrace || t.After(info.Deadline.Add(staleGrace)):
				_ = syscall.Kill(info.PID, syscall.SIGKILL)
			}
		}
		if !t.Before(until) {
			return nil, fmt.Errorf("the session's previous judge still holds %q", path)
		}
		time.Sleep(delay)
		delay = min(delay*2, 50*time.Millisecond)
	}
}

// signalable reports whether pid names another single process: kill(2)
// reads 0 as the caller's process group and negative numbers as groups or
// every process, and a lock holder's description comes from a file.
func signalable(pid int) bool {
	return pid > 1 && pid != os.Getpid()
}
