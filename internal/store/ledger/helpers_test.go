package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as the appender process of the multi-process test: run
// with LEDGER_TEST_APPEND=path,keydir,n,name it appends n entries and exits.
func TestMain(m *testing.M) {
	if spec := os.Getenv("LEDGER_TEST_APPEND"); spec != "" {
		os.Exit(appendProcess(spec))
	}
	os.Exit(m.Run())
}

func appendProcess(spec string) int {
	parts := strings.Split(spec, ",")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad LEDGER_TEST_APPEND", spec)
		return 2
	}
	path, keyDir, name := parts[0], parts[1], parts[3]
	n, _ := strconv.Atoi(parts[2])
	for i := range n {
		rec := map[string]any{"writer": name, "i": i}
		if _, err := Append(path, keyDir, KindAdvisory, Fields{TaskID: name}, rec, time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// t0 is the clock of the tests' entries.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)

type fixture struct {
	dir, path, keyDir string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	return fixture{dir: dir, path: filepath.Join(dir, "project", FileName), keyDir: filepath.Join(dir, "onlooker", "keys")}
}

// fill appends n varied entries: both kinds, with and without the
// optional ids, records holding escapes, non-ASCII text and numbers.
func (f fixture) fill(t *testing.T, n int) []Entry {
	t.Helper()
	var out []Entry
	for i := range n {
		kind, fields := KindGate, Fields{TaskID: "01JTASK", IterationID: fmt.Sprintf("01JITER%d", i)}
		if i%2 == 1 {
			kind, fields = KindAdvisory, Fields{TaskID: fmt.Sprintf("01JSTOP%d", i), SessionID: "sess-é"}
		}
		rec := map[string]any{
			"outcome":   []string{"accept", "retry"}[i%2],
			"score":     0.1 * float64(i+7),
			"feedback":  "line one\nline \"two\" <ok> — 😀",
			"iteration": i,
		}
		e, err := Append(f.path, f.keyDir, kind, fields, rec, t0.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		out = append(out, e)
	}
	return out
}

func (f fixture) read(t *testing.T) (ledger, head []byte) {
	t.Helper()
	l, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := os.ReadFile(HeadPath(f.path))
	if err != nil {
		t.Fatal(err)
	}
	return l, h
}

// write replaces the ledger and head files (a nil head removes the head).
func (f fixture) write(t *testing.T, ledger, head []byte) {
	t.Helper()
	if err := os.WriteFile(f.path, ledger, 0o600); err != nil {
		t.Fatal(err)
	}
	hp := HeadPath(f.path)
	if head == nil {
		if err := os.Remove(hp); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(hp, head, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustVerify(t *testing.T, path string) Report {
	t.Helper()
	r, err := Verify(path)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return r
}

// wantChain and wantSig assert the error type and the entry it names.
func wantChain(t *testing.T, err error, seq int64) *ChainError {
	t.Helper()
	var ce *ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v (%T), want a *ChainError", err, err)
	}
	if ce.Seq != seq || ce.Line != int(seq)+1 {
		t.Fatalf("got %v, want it to name entry %d (line %d)", ce, seq, seq+1)
	}
	return ce
}

func wantSig(t *testing.T, err error, seq int64) *SignatureError {
	t.Helper()
	var se *SignatureError
	if !errors.As(err, &se) {
		t.Fatalf("got %v (%T), want a *SignatureError", err, err)
	}
	if se.Seq != seq || se.Line != int(seq)+1 {
		t.Fatalf("got %v, want it to name entry %d (line %d)", se, seq, seq+1)
	}
	return se
}

// splitLines splits a ledger into lines, each keeping its newline.
func splitLines(b []byte) [][]byte {
	return bytes.SplitAfter(b, []byte("\n"))[:bytes.Count(b, []byte("\n"))]
}
