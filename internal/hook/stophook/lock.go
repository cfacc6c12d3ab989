package stophook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// JudgesDir is the directory, inside a project directory, that holds the
// per-session judge locks and the jobs handed to detached judges.
const JudgesDir = "judges"

// The session lock: one file per session, judges/<sid>.lock. Whoever judges
// the session holds an exclusive flock on it for as long as it judges, and
// keeps a lockInfo in it naming itself by pid and process start time.
//
// The flock is released by the kernel once every descriptor of it is
// closed, so a crashed judge blocks nothing — provided no other process
// shares the descriptor. The judge therefore marks the descriptor it
// inherits close-on-exec before it starts any child (runWorker), and every
// other holder opened it close-on-exec (os.OpenFile): a model CLI, a
// watchdog or git never holds the lock.
//
// A holder that is alive but past its deadline, or judging an older
// state, is signalled by the next judge, and only after procid has proven
// that the pid still names the process that wrote the info (same start
// time): a pid is recycled, a pid with its start time is not.
//
// A lock that is held while its info names a holder that is provably gone
// (no such process, a zombie, or the pid reused by a process that started
// at another time) is held by something that is not a judge: before
// judges made the lock close-on-exec, a descendant of a dead judge
// (a tool's daemon, a lingering watchdog) kept it, and waiting on it meant
// waiting forever. Such a lock is taken over, not waited on: the file is
// removed and the next taker creates a fresh one (takeOver). Replacing
// the file at the path is only sound if nobody can claim the old file in
// the meantime, so the path is guarded: judges/<sid>.guard is flocked,
// for microseconds and never handed to a child, around every claim (check
// that the path still names the locked file, then write the info) and
// every takeover (check that the path still names the examined file and
// its info a gone holder, then remove it). A process that flocked the old
// file just before its removal then finds the path naming another file
// when it claims, and looks again.

// lockInfo is what the holder of a session lock says about itself.
type lockInfo struct {
	PID int `json:"pid"`
	// PIDStart is the holder's process start time (procid.ID.Start),
	// which with PID names it across pid reuse; 0 or absent (a lock from
	// an older tribunal, a platform without start times) means the holder
	// cannot be proven alive, so it is never signalled.
	PIDStart uint64 `json:"pid_start,omitempty"`
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

// holder names the process the info describes.
func (i lockInfo) holder() procid.ID { return procid.ID{PID: i.PID, Start: i.PIDStart} }

// staleGrace is how long past its deadline a holder may keep the lock
// before the next judge kills it.
const staleGrace = 5 * time.Second

// termGrace is how long a superseded holder gets, after SIGTERM, to cancel
// its judge and record the cancellation before it is killed.
const termGrace = 5 * time.Second

// maxLockInfo caps what is read of a lock file.
const maxLockInfo = 4096

// errDuplicate means a judge for the same state already holds the lock.
var errDuplicate = errors.New("a judge of this state is already running")

// errSuperseded means the holder judges a newer Stop than ours.
var errSuperseded = errors.New("a newer turn is already being judged")

// lockPath names the session lock of sid in projectDir.
func lockPath(projectDir, sid string) string {
	return filepath.Join(projectDir, JudgesDir, store.SanitizeSessionID(sid)+".lock")
}

// guardPath names the guard of the session lock at lock.
func guardPath(lock string) string { return strings.TrimSuffix(lock, ".lock") + ".guard" }

// openLock opens (creating) a lock file without following a symlink and
// without blocking on a FIFO planted in its place (store.OpenInPlace).
// Like every file Go opens, it is close-on-exec.
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

// flockNB takes an exclusive flock on f without waiting: nil, or
// syscall.EWOULDBLOCK when someone else has it.
func flockNB(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// names reports whether path still names the file open as f.
func names(path string, f *os.File) bool {
	a, err := os.Lstat(path)
	if err != nil {
		return false
	}
	b, err := f.Stat()
	return err == nil && os.SameFile(a, b)
}

// guard takes the guard of the session lock at path, waiting (it is held
// for microseconds at a time) up to until.
func guard(path string, until time.Time, now func() time.Time) (release func(), err error) {
	g, err := openLock(guardPath(path))
	if err != nil {
		return nil, err
	}
	delay := 100 * time.Microsecond
	for {
		err := flockNB(g)
		if err == nil {
			return func() { g.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || !now().Before(until) {
			g.Close()
			return nil, fmt.Errorf("guard of the session lock %q: %w", path, err)
		}
		time.Sleep(delay)
		delay = min(delay*2, 10*time.Millisecond)
	}
}

// claim makes f, whose flock this process has, the session lock at path
// described by me. ok is false when path names another file by now (a
// takeover replaced it): f is then no lock at all.
func claim(f *os.File, path string, me lockInfo, until time.Time, now func() time.Time) (ok bool, err error) {
	release, err := guard(path, until, now)
	if err != nil {
		return false, err
	}
	defer release()
	if !names(path, f) {
		return false, nil
	}
	if err := writeInfo(f, me); err != nil {
		return false, fmt.Errorf("write session lock: %w", err)
	}
	return true, nil
}

// tryLock takes the session lock at once, describing it with me; when
// someone else holds it, held is the open lock file (the caller reads its
// info and closes it).
func tryLock(path string, me lockInfo, until time.Time, now func() time.Time) (mine, held *os.File, err error) {
	for {
		f, err := openLock(path)
		if err != nil {
			return nil, nil, err
		}
		err = flockNB(f)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, f, nil
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("lock %q: %w", path, err)
		}
		ok, err := claim(f, path, me, until, now)
		if ok {
			return f, nil, nil
		}
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		if !now().Before(until) {
			return nil, nil, fmt.Errorf("the session lock %q keeps being replaced", path)
		}
	}
}

// writeInfo replaces the lock file's content with info: one write at
// offset 0, then the file cut to its length. A reader that catches the
// moment in between sees the old info's tail after the new info, which is
// no valid info, and simply looks again. (Truncating to zero first would
// make ext4 flush the file to disk when it is closed, milliseconds on the
// hook's path.)
func writeInfo(f *os.File, info lockInfo) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	return f.Truncate(int64(len(data)))
}

// readInfo reads the holder's info from the open lock file; ok is false
// when there is none yet, or none that makes sense.
func readInfo(f *os.File) (lockInfo, bool) {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, maxLockInfo))
	if err != nil {
		return lockInfo{}, false
	}
	var info lockInfo
	if json.Unmarshal(data, &info) != nil || info.PID <= 0 {
		return lockInfo{}, false
	}
	return info, true
}

// takeOver removes the session lock at path when, under the guard, path
// still names held and held's info still names a holder that is provably
// gone: what keeps its flock is no judge, and may never let go. The next
// tryLock creates a fresh lock file. removed is false when there was
// nothing to take over any more (the path replaced meanwhile, the info
// rewritten).
func takeOver(held *os.File, path string, until time.Time, now func() time.Time) (removed bool, err error) {
	release, err := guard(path, until, now)
	if err != nil {
		return false, err
	}
	defer release()
	if !names(path, held) {
		return false, nil
	}
	info, ok := readInfo(held)
	if !ok || procid.Check(info.holder()) != procid.Gone {
		return false, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("take over the abandoned session lock %q: %w", path, err)
	}
	return true, nil
}
