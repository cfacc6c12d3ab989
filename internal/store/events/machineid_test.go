package events

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestMachineIDCreated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	id, err := loadMachineID(dir, countingBytes(16), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := "00010203-0405-4607-8809-0a0b0c0d0e0f"; id != want {
		t.Errorf("id = %q, want %q", id, want)
	}
	path := filepath.Join(dir, machineIDFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != id+"\n" {
		t.Errorf("file = %q, want %q", raw, id+"\n")
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode())
	}
	if fi, _ := os.Stat(dir); fi.Mode() != fs.ModeDir|0o700 {
		t.Errorf("dir mode %v, want drwx------", fi.Mode())
	}
}

func TestMachineIDReused(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"with newline", "6ba7b810-9dad-41d1-80b4-00c04fd430c8\n", "6ba7b810-9dad-41d1-80b4-00c04fd430c8"},
		{"without newline", "6ba7b810-9dad-41d1-80b4-00c04fd430c8", "6ba7b810-9dad-41d1-80b4-00c04fd430c8"},
		{"surrounding whitespace", " \t6ba7b810-9dad-41d1-80b4-00c04fd430c8 \r\n\n", "6ba7b810-9dad-41d1-80b4-00c04fd430c8"},
		{"upper case, other version", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8\n", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEmitter(t)
			testkit.WriteFile(t, filepath.Join(e.Dir, machineIDFile), tt.content)
			// Failing entropy after the event id proves nothing new is minted.
			e.Rand = iotest.DataErrReader(countingBytes(16))
			l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"}))
			if l.MachineID != tt.want {
				t.Errorf("machine_id = %q, want %q", l.MachineID, tt.want)
			}
			if got := readFile(t, filepath.Join(e.Dir, machineIDFile)); got != tt.content {
				t.Errorf("file rewritten to %q", got)
			}
		})
	}
}

func TestMachineIDBadFile(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"not a uuid", "my-laptop\n", "does not hold a UUID"},
		{"ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV\n", "does not hold a UUID"},
		{"two uuids", "6ba7b810-9dad-41d1-80b4-00c04fd430c8\n6ba7b810-9dad-41d1-80b4-00c04fd430c9\n", "does not hold a UUID"},
		{"empty", "", "is empty"},
		{"whitespace only", " \n", "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, machineIDFile)
			testkit.WriteFile(t, path, tt.content)
			_, err := loadMachineID(dir, cryptoReader(), 20*time.Millisecond)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error = %v, want one naming %q and saying %q", err, path, tt.want)
			}
			if got := readFile(t, path); got != tt.content {
				t.Errorf("shared machine_id overwritten with %q", got)
			}
		})
	}
}

// TestMachineIDWaitsForWriter covers a reader that opens the file between
// the winner's O_EXCL create and its write.
func TestMachineIDWaitsForWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, machineIDFile)
	testkit.WriteFile(t, path, "")
	const want = "6ba7b810-9dad-41d1-80b4-00c04fd430c8"
	go func() {
		time.Sleep(30 * time.Millisecond)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString(want + "\n")
			f.Close()
		}
	}()
	id, err := loadMachineID(dir, cryptoReader(), 5*time.Second)
	if err != nil || id != want {
		t.Errorf("loadMachineID = %q, %v; want %q", id, err, want)
	}
}

func TestMachineIDEntropyFailure(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	if _, err := loadMachineID(dir, iotest.ErrReader(boom), time.Second); !errors.Is(err, boom) {
		t.Fatalf("error = %v, want the entropy failure", err)
	}
	if _, err := os.Stat(filepath.Join(dir, machineIDFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("machine_id left behind after a failed creation (stat: %v)", err)
	}
}

func TestMachineIDConcurrentGoroutines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fresh")
	const n = 32
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			ids[i], errs[i] = loadMachineID(dir, cryptoReader(), time.Second)
		})
	}
	close(start)
	wg.Wait()
	want := strings.TrimSpace(readFile(t, filepath.Join(dir, machineIDFile)))
	for i := range n {
		if errs[i] != nil || ids[i] != want {
			t.Errorf("goroutine %d: %q, %v; file holds %q", i, ids[i], errs[i], want)
		}
	}
}

func TestMachineIDConcurrentProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fresh")
	const n = 8
	cmds := startHelpers(t, "machineid", n, func(int) []string { return []string{helperDirEnv + "=" + dir} })
	outs := waitHelpers(t, cmds)
	want := strings.TrimSpace(readFile(t, filepath.Join(dir, machineIDFile)))
	if !isUUID(want) {
		t.Fatalf("machine_id file holds %q", want)
	}
	for i, out := range outs {
		if got := strings.TrimSpace(out); got != want {
			t.Errorf("process %d: machine id %q, file holds %q", i, got, want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
