package events

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// TestEmitHealsTornTail: a log whose last line lost its end (a writer
// killed mid-append, a disk that filled up) gets that fragment terminated
// by the next Emit, so the new line and all later ones stay whole; a
// healthy log gets no blank line.
func TestEmitHealsTornTail(t *testing.T) {
	tests := []struct {
		name, before string
		wantPrefix   string
	}{
		{"empty log", "", ""},
		{"healthy log", "{\"a\":1}\n", "{\"a\":1}\n"},
		{"torn line", "{\"id\":\"x\",\"sche", "{\"id\":\"x\",\"sche\n"},
		{"torn multi-byte character", "{\"a\":\"\xc3", "{\"a\":\"\xc3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEmitter(t)
			testkit.WriteFile(t, e.LogPath, tt.before)
			for range 2 {
				if err := e.Emit(SessionStart{TaskID: "t"}); err != nil {
					t.Fatal(err)
				}
			}
			got := readFile(t, e.LogPath)
			if !strings.HasPrefix(got, tt.wantPrefix) {
				t.Fatalf("log = %q, want it to start with %q", got, tt.wantPrefix)
			}
			rest := strings.Split(strings.TrimSuffix(got[len(tt.wantPrefix):], "\n"), "\n")
			if len(rest) != 2 {
				t.Fatalf("after the old content: %d lines %q, want the 2 new ones", len(rest), rest)
			}
			for _, l := range rest {
				if err := schemacheck.ValidateLine([]byte(l)); err != nil {
					t.Errorf("new line %q: %v", l, err)
				}
			}
		})
	}
}

// TestEmitWriteOnlyLog: a log the user may append to but not read is still
// appended to (the torn-tail check is skipped).
func TestEmitWriteOnlyLog(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	e := newTestEmitter(t)
	testkit.WriteFile(t, e.LogPath, "{\"a\":1}\n")
	if err := os.Chmod(e.LogPath, 0o200); err != nil {
		t.Fatal(err)
	}
	if err := e.Emit(SessionStart{TaskID: "t"}); err != nil {
		t.Fatalf("Emit to a write-only log: %v", err)
	}
	os.Chmod(e.LogPath, 0o600)
	if got := readFile(t, e.LogPath); strings.Count(got, "\n") != 2 {
		t.Errorf("log = %q", got)
	}
}

// TestEmitFullDevice: an append to a full device fails with ENOSPC, the
// error names the log, and no temporary file stays in the Onlooker
// directory.
func TestEmitFullDevice(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	e := newTestEmitter(t)
	e.LogPath = "/dev/full"
	err := e.Emit(SessionStart{TaskID: "t"})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Emit to /dev/full: %v, want ENOSPC", err)
	}
	if !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("error %q does not name the log", err)
	}
	assertDirHolds(t, e.Dir, lockFile, sequenceFile, machineIDFile)
}

// TestSequenceStaleTemp: the counter's temporary file left by a writer
// killed before its rename is reused, not multiplied, and does not survive
// the next write.
func TestSequenceStaleTemp(t *testing.T) {
	e := newTestEmitter(t)
	testkit.WriteFile(t, filepath.Join(e.Dir, sequenceTemp), "99999 half-written garbage")
	testkit.WriteFile(t, filepath.Join(e.Dir, sequenceFile), "7")
	if l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"})); l.Sequence != 7 {
		t.Errorf("sequence %d, want 7", l.Sequence)
	}
	if got := readFile(t, filepath.Join(e.Dir, sequenceFile)); got != "8" {
		t.Errorf("counter = %q, want \"8\"", got)
	}
	assertDirHolds(t, e.Dir, lockFile, sequenceFile, "logs", machineIDFile)
}

func assertDirHolds(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("%s lacks %s", dir, w)
		}
		delete(have, w)
	}
	for name := range have {
		t.Errorf("%s holds unexpected %s", dir, name)
	}
}
