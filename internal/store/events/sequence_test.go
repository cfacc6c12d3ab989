package events

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

func TestSequenceFromCounterFile(t *testing.T) {
	tests := []struct {
		name     string
		content  *string // nil: no file
		wantSeq  int64
		wantNext string
	}{
		{"missing", nil, 0, "1"},
		{"plain", Ptr("41"), 41, "42"},
		{"whitespace and newline", Ptr(" 7\n"), 7, "8"},
		{"zero", Ptr("0"), 0, "1"},
		{"leading zeros", Ptr("007"), 7, "8"},
		{"explicit plus", Ptr("+5"), 5, "6"},
		{"empty", Ptr(""), 0, "1"},
		{"garbage", Ptr("abc"), 0, "1"},
		{"negative", Ptr("-3"), 0, "1"},
		{"float", Ptr("1.5"), 0, "1"},
		{"exponent", Ptr("1e3"), 0, "1"},
		{"two numbers", Ptr("12 34"), 0, "1"},
		{"hex", Ptr("0x10"), 0, "1"},
		{"overflow", Ptr("99999999999999999999"), 0, "1"},
		{"max int64 wraps", Ptr(strconv.FormatInt(math.MaxInt64, 10)), math.MaxInt64, "0"},
		{"huge file", Ptr(strings.Repeat(" ", maxSequenceBytes) + "5"), 0, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEmitter(t)
			counter := filepath.Join(e.Dir, sequenceFile)
			if tt.content != nil {
				testkit.WriteFile(t, counter, *tt.content)
			}
			l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"}))
			if l.Sequence != tt.wantSeq {
				t.Errorf("sequence = %d, want %d", l.Sequence, tt.wantSeq)
			}
			if got := readFile(t, counter); got != tt.wantNext {
				t.Errorf("counter file = %q, want %q", got, tt.wantNext)
			}
		})
	}
}

func TestSequenceIncrementsAndLeavesNoTempFiles(t *testing.T) {
	e := newTestEmitter(t)
	for i := range 5 {
		if l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"})); l.Sequence != int64(i) {
			t.Fatalf("event %d: sequence %d", i, l.Sequence)
		}
	}
	if got := readFile(t, filepath.Join(e.Dir, sequenceFile)); got != "5" {
		t.Errorf("counter = %q, want \"5\"", got)
	}
	entries, err := os.ReadDir(e.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
	}
	if want := []string{lockFile, sequenceFile, "logs", machineIDFile}; !slices.Equal(names, want) {
		t.Errorf("onlooker dir holds %q, want %q", names, want)
	}
}

// holdLock takes the sidecar lock through a separate open file description,
// which conflicts with Emit's even inside this process.
func holdLock(t *testing.T, dir string) (release func()) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() }
}

func TestEmitLockTimeout(t *testing.T) {
	e := newTestEmitter(t)
	e.lockWait = 80 * time.Millisecond
	release := holdLock(t, e.Dir)
	start := time.Now()
	err := e.Emit(SessionStart{TaskID: "t"})
	waited := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "still held by another writer") {
		t.Fatalf("Emit error = %v, want a lock timeout", err)
	}
	if waited < e.lockWait || waited > e.lockWait+2*time.Second {
		t.Errorf("gave up after %v with a budget of %v", waited, e.lockWait)
	}
	if lines := readLog(t, e.LogPath); len(lines) != 0 {
		t.Errorf("timed-out Emit wrote %q", lines)
	}
	release()
	if l := decodeLine(t, emitOne(t, e, SessionStart{TaskID: "t"})); l.Sequence != 0 {
		t.Errorf("sequence after timeout = %d, want 0 (nothing consumed)", l.Sequence)
	}
}

// TestEmitLockWaitsForHolder shows a briefly held lock is waited for, not
// treated as an error.
func TestEmitLockWaitsForHolder(t *testing.T) {
	e := newTestEmitter(t)
	release := holdLock(t, e.Dir)
	time.AfterFunc(50*time.Millisecond, release)
	if err := e.Emit(SessionStart{TaskID: "t"}); err != nil {
		t.Fatalf("Emit: %v", err)
	}
}

// TestLockReleasedOnError fails Emit while it holds the lock, then checks a
// later Emit with a short budget still gets the lock.
func TestLockReleasedOnError(t *testing.T) {
	e := newTestEmitter(t)
	e.lockWait = 100 * time.Millisecond
	counter := filepath.Join(e.Dir, sequenceFile)
	if err := os.MkdirAll(counter, 0o700); err != nil { // unreadable as a counter
		t.Fatal(err)
	}
	err := e.Emit(SessionStart{TaskID: "t"})
	if err == nil || !strings.Contains(err.Error(), "sequence") {
		t.Fatalf("Emit error = %v, want a sequence error", err)
	}
	if lines := readLog(t, e.LogPath); len(lines) != 0 {
		t.Errorf("failed Emit wrote %q", lines)
	}
	if err := os.Remove(counter); err != nil {
		t.Fatal(err)
	}
	if err := e.Emit(SessionStart{TaskID: "t"}); err != nil {
		t.Fatalf("Emit after a failed one: %v (lock leaked?)", err)
	}
}

// checkOrderedLog asserts the log holds exactly total schema-valid lines
// with sequences 0..total-1 in line order, and returns them decoded.
func checkOrderedLog(t *testing.T, path string, total int) []line {
	t.Helper()
	if n, err := schemacheck.ValidateLog(path); err != nil || n != total {
		t.Fatalf("ValidateLog = %d, %v; want %d, nil", n, err, total)
	}
	raw := readLog(t, path)
	lines := make([]line, len(raw))
	ids := map[string]bool{}
	for i, s := range raw {
		lines[i] = decodeLine(t, s)
		if lines[i].Sequence != int64(i) {
			t.Fatalf("line %d has sequence %d", i+1, lines[i].Sequence)
		}
		if ids[lines[i].ID] {
			t.Fatalf("line %d repeats event id %q", i+1, lines[i].ID)
		}
		ids[lines[i].ID] = true
	}
	return lines
}

// checkPerWriterOrder asserts each session's events appear in emission
// order (the k-th carries iteration_number k) and that there are n of them.
func checkPerWriterOrder(t *testing.T, lines []line, writers, n int) {
	t.Helper()
	next := map[string]int{}
	for i, l := range lines {
		var p struct {
			IterationNumber int `json:"iteration_number"`
		}
		if err := json.Unmarshal(l.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if p.IterationNumber != next[l.SessionID] {
			t.Fatalf("line %d: %s emitted #%d, want #%d", i+1, l.SessionID, p.IterationNumber, next[l.SessionID])
		}
		next[l.SessionID]++
	}
	if len(next) != writers {
		t.Errorf("%d writers seen, want %d", len(next), writers)
	}
	for s, c := range next {
		if c != n {
			t.Errorf("%s wrote %d events, want %d", s, c, n)
		}
	}
}

func TestEmitConcurrentGoroutines(t *testing.T) {
	const writers, each = 8, 25
	e := newTestEmitter(t)
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			em := *e
			em.SessionID = "goroutine-" + strconv.Itoa(w)
			for k := range each {
				if err := em.Emit(stressPayload(k)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkPerWriterOrder(t, checkOrderedLog(t, e.LogPath, writers*each), writers, each)
}

// TestEmitConcurrentProcesses is the spec §A.6 regression: separate processes
// sharing one ONLOOKER_DIR must neither duplicate nor lose sequence numbers,
// nor tear lines, and line order must equal sequence order.
func TestEmitConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, each = 8, 50
	e := newTestEmitter(t)
	cmds := startHelpers(t, "emit", procs, func(i int) []string {
		return []string{
			helperDirEnv + "=" + e.Dir,
			helperLogEnv + "=" + e.LogPath,
			helperCountEnv + "=" + strconv.Itoa(each),
			helperSessEnv + "=proc-" + strconv.Itoa(i),
		}
	})
	waitHelpers(t, cmds)
	lines := checkOrderedLog(t, e.LogPath, procs*each)
	checkPerWriterOrder(t, lines, procs, each)
	machine := lines[0].MachineID
	for i, l := range lines {
		if l.MachineID != machine {
			t.Fatalf("line %d: machine_id %q, line 1 has %q", i+1, l.MachineID, machine)
		}
	}
	if got := readFile(t, filepath.Join(e.Dir, sequenceFile)); got != strconv.Itoa(procs*each) {
		t.Errorf("counter = %q, want %d", got, procs*each)
	}
}
