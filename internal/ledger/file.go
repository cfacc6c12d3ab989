package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// lockWait bounds how long an append waits for another appender. Appends
// hold the lock for a few milliseconds; a holder stuck for this long is
// broken, and the Stop hook must not hang behind it.
const lockWait = 10 * time.Second

// lockFile takes a flock on path, polling with LOCK_NB so that a stuck
// holder costs at most wait. Appenders take it exclusive, creating the
// file (0600); Verify takes it shared, so that it never sees an append
// half done, and does without when the file does not exist (nothing was
// ever appended, or the path is read-only). flock locks belong to the open
// file description, so two goroutines of one process exclude each other
// as two processes do. The returned func releases the lock.
func lockFile(path string, exclusive bool, wait time.Duration) (unlock func(), err error) {
	flag, how := os.O_RDONLY, syscall.LOCK_SH
	if exclusive {
		flag, how = os.O_RDWR|os.O_CREATE, syscall.LOCK_EX
	}
	f, err := os.OpenFile(path, flag, 0o600)
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

// readTail returns the last complete (newline-terminated) line of the
// first size bytes of f, without its newline, and the length of any
// incomplete line after it. It reads backwards in growing chunks, so an
// append costs the same on a ledger of any length.
func readTail(f io.ReaderAt, size int64) (last []byte, partial int64, err error) {
	var buf []byte // always f[pos:size]
	pos := size
	chunk := int64(4096)
	for {
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			if j := bytes.LastIndexByte(buf[:i], '\n'); j >= 0 {
				return buf[j+1 : i], int64(len(buf) - i - 1), nil
			}
			if pos == 0 {
				return buf[:i], int64(len(buf) - i - 1), nil
			}
		} else if pos == 0 {
			return nil, int64(len(buf)), nil
		}
		n := min(chunk, pos)
		pos -= n
		more := make([]byte, n, n+int64(len(buf)))
		if _, err := f.ReadAt(more, pos); err != nil {
			return nil, 0, err
		}
		buf = append(more, buf...)
		chunk *= 2
	}
}
