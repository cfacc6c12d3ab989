package events

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

const machineIDFile = "machine_id"

// machineIDWait bounds how long a reader that finds the file empty waits for
// the creating process's single write to land.
const machineIDWait = time.Second

// loadMachineID returns the trimmed contents of dir/machine_id, creating it
// with a fresh UUIDv4 when missing. Creation is exclusive (O_EXCL) so
// concurrent first runs converge on one id (spec §10). A file that exists but
// does not hold a UUID is an error rather than something to overwrite:
// every Onlooker tool on the machine shares it. wait bounds how long an
// empty file is given to be filled.
func loadMachineID(dir string, r io.Reader, wait time.Duration) (string, error) {
	path := filepath.Join(dir, machineIDFile)
	deadline := time.Now().Add(wait)
	for {
		id, err := readMachineID(path)
		switch {
		case err == nil && id != "":
			if !isUUID(id) {
				return "", fmt.Errorf("machine id file %q does not hold a UUID", path)
			}
			return id, nil
		case err == nil:
			// Empty: another process created the file and has not written
			// it yet, or it crashed in between.
			if !time.Now().Before(deadline) {
				return "", fmt.Errorf("machine id file %q is empty", path)
			}
			time.Sleep(time.Millisecond)
			continue
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		id, created, err := createMachineID(dir, path, r)
		if err != nil {
			return "", err
		}
		if created {
			return id, nil
		}
		// Lost the race: loop to read the winner's id.
	}
}

func readMachineID(path string) (string, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("read machine id: %w", err)
	}
	defer f.Close()
	// A UUID plus whitespace is tiny; the cap keeps a corrupt file cheap.
	buf, err := io.ReadAll(io.LimitReader(f, 1024))
	if err != nil {
		return "", fmt.Errorf("read machine id: %w", err)
	}
	return strings.TrimSpace(string(buf)), nil
}

// linkFile is os.Link; tests replace it to exercise the fallback.
var linkFile = os.Link

// createMachineID reports created=false when another process created the
// file first.
//
// The id is written to a private temporary file, synced, then hard-linked
// into place. link(2) fails when the name exists, so creation stays
// exclusive, and the name never points at an empty or half-written file: a
// crash at any moment leaves no machine_id or a complete one. (With an
// O_EXCL create followed by a write, a crash in between left an empty file
// that made every later emitter fail.) Filesystems without hard links get
// that older sequence.
func createMachineID(dir, path string, r io.Reader) (id string, created bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("create onlooker dir: %w", err)
	}
	id, err = NewUUIDv4(r)
	if err != nil {
		return "", false, fmt.Errorf("machine id: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+machineIDFile+"-*.tmp")
	if err != nil {
		return "", false, fmt.Errorf("create machine id: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(id + "\n")
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return "", false, fmt.Errorf("write machine id: %w", err)
	}
	err = linkFile(tmp.Name(), path)
	switch {
	case err == nil:
		return id, true, nil
	case errors.Is(err, fs.ErrExist):
		return "", false, nil
	}
	return createMachineIDExcl(path, id)
}

// createMachineIDExcl is the fallback for filesystems that refuse hard
// links: an exclusive create, then one write.
func createMachineIDExcl(path, id string) (string, bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("create machine id: %w", err)
	}
	_, werr := f.WriteString(id + "\n")
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		// Leaving an empty file behind would block every later emitter.
		os.Remove(path)
		return "", false, fmt.Errorf("write machine id: %w", err)
	}
	return id, true, nil
}
