package ledger

import (
	"github.com/tribunal-cc/tribunal/internal/store"

	"bytes"
	"io"
	"time"
)

// lockWait bounds how long an append waits for another appender. Appends
// hold the lock for a few milliseconds; a holder stuck for this long is
// broken, and the Stop hook must not hang behind it.
const lockWait = 10 * time.Second

// lockFile takes the ledger's lock (see store.LockFile).
func lockFile(path string, exclusive bool, wait time.Duration) (unlock func(), err error) {
	return store.LockFile(path, exclusive, wait)
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
