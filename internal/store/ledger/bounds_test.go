package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// A planted line far past MaxLine is refused as a chain error while
// verify holds no more than about MaxLine of it: before the bound, a
// 300 MB line cost verify 2.7 GB.
func TestVerifyHugeLineIsBounded(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 2)
	led, head := f.read(t)
	huge := append(bytes.Repeat([]byte("x"), 48<<20), '\n')
	f.write(t, append(led, huge...), head)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Verify(f.path)
	runtime.ReadMemStats(&after)
	ce := wantChain(t, err, 2)
	if !strings.Contains(ce.Reason, "longer than") {
		t.Errorf("reason %q", ce.Reason)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 6*MaxLine {
		t.Errorf("verify allocated %d MB for a 48 MB line; want at most %d MB", got>>20, 6*MaxLine>>20)
	}
}

// An append reads only the last line, and not past MaxLine of it.
func TestAppendAfterHugeLastLine(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	led, head := f.read(t)
	f.write(t, append(led, append(bytes.Repeat([]byte("x"), MaxLine+10), '\n')...), head)
	_, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]string{}, t0)
	if !errors.Is(err, errLongLine) {
		t.Fatalf("got %v, want errLongLine", err)
	}
}

// Append never writes a line verify would refuse.
func TestAppendRefusesAnOversizedEntry(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	before, _ := os.ReadFile(f.path)
	_, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]string{"feedback": strings.Repeat("y", MaxLine)}, t0)
	if !errors.Is(err, errLongLine) {
		t.Fatalf("got %v, want errLongLine", err)
	}
	if after, _ := os.ReadFile(f.path); !bytes.Equal(before, after) {
		t.Error("the ledger changed")
	}
	mustVerify(t, f.path)
}

// A line of exactly MaxLine bytes is still read (the bound is not off by one).
func TestReadLineBound(t *testing.T) {
	for _, tc := range []struct {
		n    int
		long bool
	}{{MaxLine, false}, {MaxLine + 1, true}} {
		in := append(bytes.Repeat([]byte("a"), tc.n), '\n')
		got, eof, err := readLine(bufio.NewReaderSize(bytes.NewReader(in), 64<<10))
		if tc.long {
			if !errors.Is(err, errLongLine) {
				t.Errorf("%d bytes: got %v", tc.n, err)
			}
			continue
		}
		if err != nil || eof || len(got) != tc.n {
			t.Errorf("%d bytes: len %d, eof %v, err %v", tc.n, len(got), eof, err)
		}
	}
}

// A ledger replaced by a symbolic link is not appended through.
func TestAppendRefusesSymlinkedLedger(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	led, _ := f.read(t)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, led, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f.path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, f.path); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]string{}, t0); !errors.Is(err, store.ErrSymlink) {
		t.Fatalf("got %v, want ErrSymlink", err)
	}
	if got, _ := os.ReadFile(victim); !bytes.Equal(got, led) {
		t.Error("the link's target was appended to")
	}
}
