package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// LockFile takes an flock on path: exclusive (creating the file, 0600) or
// shared (a missing file means nobody ever wrote, so there is nothing to
// wait for and unlock is a no-op). It polls with LOCK_NB, backing off from
// 100 µs to 5 ms, so that a stuck holder costs at most wait instead of
// hanging a hook; a holder that is still there then is an error. The
// returned func releases the lock and must be called exactly once. The
// events counter and the ledger both use it, so the two lock the same way.
func LockFile(path string, exclusive bool, wait time.Duration) (unlock func(), err error) {
	flag, how := os.O_RDONLY, syscall.LOCK_SH
	if exclusive {
		flag, how = os.O_RDWR|os.O_CREATE, syscall.LOCK_EX
	}
	f, err := OpenInPlace(path, flag, 0o600)
	if !exclusive && errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	deadline := time.Now().Add(wait)
	delay := 100 * time.Microsecond
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return func() {
				// Closing the descriptor also drops the lock; the explicit
				// unlock makes the release independent of Close errors.
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %q: %w", path, err)
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, fmt.Errorf("lock %q: still held by another writer after %v", path, wait)
		}
		time.Sleep(delay)
		delay = min(delay*2, 5*time.Millisecond)
	}
}
