package events

import (
	"github.com/tribunal-cc/tribunal/internal/store"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

const (
	sequenceFile = "event-sequence"
	// lockFile is a sidecar rather than the counter itself because the
	// counter is replaced by rename, which would orphan a lock held on it.
	lockFile = ".event-sequence.lock"
	// maxSequenceBytes is far above any int64 plus stray whitespace.
	maxSequenceBytes = 4096
)

// lockSequence takes an exclusive flock on dir/.event-sequence.lock, polling
// with LOCK_NB so a stuck holder costs at most wait rather than hanging the
// hook. The returned func releases the lock and must be called exactly once.
func lockSequence(dir string, wait time.Duration) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create onlooker dir: %w", err)
	}
	return store.LockFile(filepath.Join(dir, lockFile), true, wait)
}

// nextSequence returns the counter's current value and stores value+1. It
// must run under lockSequence. The counter is written before the caller
// appends, so a failed append leaves a gap, never a duplicate.
func nextSequence(dir string) (int64, error) {
	path := filepath.Join(dir, sequenceFile)
	seq, err := readSequence(path)
	if err != nil {
		return 0, err
	}
	next := seq + 1
	if seq == math.MaxInt64 {
		next = 0
	}
	if err := writeSequence(dir, path, next); err != nil {
		return 0, err
	}
	return seq, nil
}

// readSequence parses the counter as a trimmed base-10 integer. A missing,
// empty, negative or otherwise unparseable counter counts as 0 (spec §10); only
// I/O failures are errors.
func readSequence(path string) (int64, error) {
	f, err := store.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read sequence: %w", err)
	}
	defer f.Close()
	// A counter is a few bytes; anything past the cap is garbage, and
	// reading it whole would only cost time.
	buf, err := io.ReadAll(io.LimitReader(f, maxSequenceBytes+1))
	if err != nil {
		return 0, fmt.Errorf("read sequence: %w", err)
	}
	if len(buf) > maxSequenceBytes {
		return 0, nil
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(buf)), 10, 64)
	if err != nil || v < 0 {
		return 0, nil
	}
	return v, nil
}

// sequenceTemp is the counter's temporary file. One fixed name suffices
// because only the lock holder writes it, and it means that a writer killed
// between the write and the rename leaves one stale file, which the next
// writer truncates and reuses, rather than a new random name in the shared
// Onlooker directory for every crash.
const sequenceTemp = "." + sequenceFile + ".tmp"

// writeSequence replaces the counter through a temporary file and rename so
// a crash mid-write cannot leave a truncated number behind. It must run
// under lockSequence.
func writeSequence(dir, path string, v int64) error {
	name := filepath.Join(dir, sequenceTemp)
	tmp, err := store.OpenInPlace(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("write sequence: %w", err)
	}
	_, werr := tmp.WriteString(strconv.FormatInt(v, 10))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(name)
		return fmt.Errorf("write sequence: %w", err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write sequence: %w", err)
	}
	return nil
}
