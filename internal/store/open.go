package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by OpenRegular's error for a path that names
// something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading and requires a regular file (through
// symlinks: a settings file may well be a link into a dotfiles checkout).
// A configuration, transcript or store file that is a FIFO or a device
// must not hang tribunal: open(2) of a FIFO waits for a writer, and so
// would everything after it, hooks and signals alike. O_NONBLOCK keeps the
// open itself from waiting; the type check on the open descriptor (not on
// the path, which could be swapped in between) then refuses it. Reads of a
// regular file ignore the flag. Every reader of such files goes through
// here.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return requireType(f, path, fs.FileMode.IsRegular)
}

// OpenRegularIn is OpenRegular for a path inside root, never leaving it:
// the deterministic evaluators read the files of a change, and one of
// them may be a FIFO planted by that change, whose open(2) would wait for
// a writer that never comes.
func OpenRegularIn(root *os.Root, rel string) (*os.File, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return requireType(f, rel, fs.FileMode.IsRegular)
}

// requireType returns f when the type of the file it has open is allowed
// and closes it otherwise.
func requireType(f *os.File, path string, allowed func(fs.FileMode) bool) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !allowed(fi.Mode()) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, describeType(fi.Mode()))}
	}
	return f, nil
}

// ErrSymlink is wrapped by OpenInPlace's error for a path whose last
// component is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link, which tribunal does not write through")

// OpenInPlace opens a file that tribunal appends to or locks (the events
// log, the sequence counter, lock files, the ledger). It never follows a
// symbolic link in the last component (O_NOFOLLOW): one planted in the
// store would otherwise redirect the write to any file the user can
// write. Files tribunal replaces are safe already, since a rename replaces
// a link rather than writing through it. Like OpenRegular, it never waits
// in open(2) for a FIFO's other end, and it refuses a FIFO, socket or
// directory outright (writes to a FIFO nobody reads block once its buffer
// is full); a character device such as /dev/null is allowed, as a user
// may point the events log at one.
func OpenInPlace(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	if err != nil {
		return nil, err
	}
	return requireType(f, path, func(m fs.FileMode) bool { return m.IsRegular() || m&fs.ModeCharDevice != 0 })
}

// ReadRegular reads the regular file at path (see OpenRegular), failing
// for a file larger than max bytes without reading more than max+1.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return readBounded(f, max)
}

// ReadRegularIn is ReadRegular for a path inside root (see OpenRegularIn).
func ReadRegularIn(root *os.Root, rel string, max int64) ([]byte, error) {
	f, err := OpenRegularIn(root, rel)
	if err != nil {
		return nil, err
	}
	return readBounded(f, max)
}

// readBounded reads f to its end and closes it, failing for more than max
// bytes without reading more than max+1.
func readBounded(f *os.File, max int64) ([]byte, error) {
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return data, nil
}

func describeType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "type " + m.Type().String()
}

// syscallNoFollowNonblock opens without following a final symbolic link
// and without waiting for a FIFO's other end.
const syscallNoFollowNonblock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// linkError names a final symbolic link that an O_NOFOLLOW open refused.
func linkError(path string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return &fs.PathError{Op: "open", Path: path, Err: ErrLinkInRepo}
	}
	return err
}
