package events

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMachineIDNeverVisiblyEmpty races a reader that gives an empty file
// no grace period against a creator. A reader that ever finds machine_id
// empty has seen the moment at which a crash would have left it empty for
// good, blocking every later emitter; with the link-into-place creation
// that moment does not exist. (With the previous create-then-write
// sequence about one run in four hit it.)
func TestMachineIDNeverVisiblyEmpty(t *testing.T) {
	base := t.TempDir()
	for i := range 300 {
		dir := filepath.Join(base, strconv.Itoa(i))
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		done := make(chan struct{})
		var readerErr error
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				_, err := loadMachineID(dir, cryptoReader(), 0)
				if err == nil {
					return
				}
				if strings.Contains(err.Error(), "is empty") {
					readerErr = err
					return
				}
			}
		})
		if _, err := loadMachineID(dir, cryptoReader(), time.Second); err != nil {
			t.Fatal(err)
		}
		close(done)
		wg.Wait()
		if readerErr != nil {
			t.Fatalf("run %d: a reader saw a half-created machine id: %v", i, readerErr)
		}
		assertOnlyMachineID(t, dir)
	}
}

// TestMachineIDWithoutHardLinks covers filesystems that refuse link(2):
// creation falls back to an exclusive create and still yields one id.
func TestMachineIDWithoutHardLinks(t *testing.T) {
	for _, linkErr := range []error{syscall.EPERM, syscall.ENOTSUP, syscall.EXDEV} {
		t.Run(linkErr.Error(), func(t *testing.T) {
			orig := linkFile
			linkFile = func(string, string) error { return &os.LinkError{Op: "link", Err: linkErr} }
			t.Cleanup(func() { linkFile = orig })

			dir := filepath.Join(t.TempDir(), "fresh")
			id, err := loadMachineID(dir, countingBytes(16), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if want := "00010203-0405-4607-8809-0a0b0c0d0e0f"; id != want {
				t.Errorf("id = %q, want %q", id, want)
			}
			if got := readFile(t, filepath.Join(dir, machineIDFile)); got != id+"\n" {
				t.Errorf("file = %q", got)
			}
			again, err := loadMachineID(dir, cryptoReader(), time.Second)
			if err != nil || again != id {
				t.Errorf("second load = %q, %v; want %q", again, err, id)
			}
			assertOnlyMachineID(t, dir)
		})
	}
}

// TestMachineIDLinkLosesRace: when the name appears between the read and
// the link, the loser adopts the winner's id and leaves no temporary file.
func TestMachineIDLinkLosesRace(t *testing.T) {
	dir := t.TempDir()
	const winner = "6ba7b810-9dad-41d1-80b4-00c04fd430c8"
	orig := linkFile
	linkFile = func(oldname, newname string) error {
		if err := os.WriteFile(newname, []byte(winner+"\n"), 0o600); err != nil {
			return err
		}
		return orig(oldname, newname)
	}
	t.Cleanup(func() { linkFile = orig })
	id, err := loadMachineID(dir, cryptoReader(), time.Second)
	if err != nil || id != winner {
		t.Fatalf("loadMachineID = %q, %v; want the winner %q", id, err, winner)
	}
	assertOnlyMachineID(t, dir)
}

func assertOnlyMachineID(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != machineIDFile {
			t.Errorf("left behind %q", e.Name())
		}
	}
	fi, err := os.Stat(filepath.Join(dir, machineIDFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("machine_id mode %v, want 0600", fi.Mode().Perm())
	}
}
