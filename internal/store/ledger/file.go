package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// MaxLine bounds one ledger line, newline excluded. An entry holds one
// decision record, a few kilobytes; the bound keeps a planted line of
// hundreds of megabytes from costing gigabytes of memory in verify (it is
// read in pieces and refused once past the bound) or in an append (which
// reads the last line). Append refuses to write a longer line.
const MaxLine = 4 << 20

// maxHead bounds the head file: a count, a hash, a key and a signature.
const maxHead = 64 << 10

// errLongLine is what readLine and readTail report for a line past MaxLine.
var errLongLine = fmt.Errorf("a line is longer than %d bytes, which no ledger entry is", MaxLine)

// readLine returns the next line of br without its newline; eof is set
// when br ended before a newline, with whatever came before it. A line
// longer than MaxLine is errLongLine, found before more than MaxLine bytes
// of it are held.
func readLine(br *bufio.Reader) (line []byte, eof bool, err error) {
	for {
		piece, err := br.ReadSlice('\n')
		if len(line)+len(piece) > MaxLine+1 {
			return nil, false, errLongLine
		}
		line = append(line, piece...)
		switch {
		case err == nil:
			return line[:len(line)-1], false, nil
		case errors.Is(err, io.EOF):
			return line, true, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, false, err
		}
	}
}

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
		if int64(len(buf)) > MaxLine+2 {
			// Two newlines are always within MaxLine+2 bytes of each
			// other (or of the start) in a ledger Append wrote.
			return nil, 0, errLongLine
		}
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
