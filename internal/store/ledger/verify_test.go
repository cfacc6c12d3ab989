package ledger

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

func TestVerifyMissingLedger(t *testing.T) {
	f := newFixture(t)
	if _, err := Verify(f.path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want fs.ErrNotExist", err)
	}
}

func TestVerifyEmptyLedgerWithItsHead(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	key, err := LoadOrCreateKey(f.keyDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeHead(f.path, &Head{Hash: zeroHash}, key); err != nil {
		t.Fatal(err)
	}
	f.write(t, nil, mustRead(t, HeadPath(f.path)))
	if r := mustVerify(t, f.path); r.Entries != 0 || len(r.Keys) != 0 || r.Head.Entries != 0 {
		t.Errorf("report %+v", r)
	}
	// An empty ledger file and no head: nothing was ever recorded.
	f.write(t, nil, nil)
	if r := mustVerify(t, f.path); r.Entries != 0 {
		t.Errorf("report %+v", r)
	}
}

// Lines far beyond a bufio.Scanner's default 64 KiB limit verify, and an
// append after one finds the chain's end.
func TestVerifyLongLines(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	big := strings.Repeat("verdict text ", 40000)
	if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]string{"feedback": big}, t0); err != nil {
		t.Fatal(err)
	}
	f.fill(t, 1)
	if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]string{"feedback": big + big}, t0); err != nil {
		t.Fatal(err)
	}
	f.fill(t, 1)
	if fi, _ := os.Stat(f.path); fi.Size() < 1<<20 {
		t.Fatalf("ledger is only %d bytes", fi.Size())
	}
	if r := mustVerify(t, f.path); r.Entries != 5 {
		t.Errorf("%d entries, want 5", r.Entries)
	}
}

func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&ChainError{Seq: 3, Line: 4, Reason: "the line holds entry 4: a line was deleted or moved up"},
			"entry 3 (line 4): the line holds entry 4: a line was deleted or moved up"},
		{&SignatureError{Seq: 0, Line: 1, Reason: "the signature does not verify"},
			"entry 0 (line 1): the signature does not verify"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestReadTail(t *testing.T) {
	for _, tc := range []struct {
		in      string
		last    string
		partial int64
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"a\n", "a", 0},
		{"a\nbc\n", "bc", 0},
		{"a\nbc\nde", "bc", 2},
		{"\n", "", 0},
		{strings.Repeat("x", 10000) + "\n" + strings.Repeat("y", 20000) + "\n", strings.Repeat("y", 20000), 0},
		{"a\n" + strings.Repeat("y", 20000) + "\n" + strings.Repeat("z", 9000), strings.Repeat("y", 20000), 9000},
	} {
		last, partial, err := readTail(strings.NewReader(tc.in), int64(len(tc.in)))
		if err != nil || string(last) != tc.last || partial != tc.partial {
			t.Errorf("readTail(%.10q…): %.10q…, %d, %v; want %.10q…, %d", tc.in, last, partial, err, tc.last, tc.partial)
		}
	}
}

// An unreadable ledger is an I/O error, neither a chain nor a signature
// failure: the CLI must not report tampering for it.
func TestVerifyIOError(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(f.path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Verify(f.path)
	var ce *ChainError
	var se *SignatureError
	if err == nil || errors.As(err, &ce) || errors.As(err, &se) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want a plain I/O error", err)
	}
}

// Lines that are canonical JSON but not entries break the chain; they
// carry no signature to fail.
func TestVerifyNonEntryLines(t *testing.T) {
	for _, line := range []string{"null", "[]", "1", `"x"`, "{}", `{"seq":0}`, ""} {
		f := newFixture(t)
		f.fill(t, 1)
		_, head := f.read(t)
		f.write(t, []byte(line+"\n"), head)
		_, err := Verify(f.path)
		var ce *ChainError
		var se *SignatureError
		switch {
		case line == "{}" || line == `{"seq":0}`:
			// An object without public_key and sig: no signature.
			if !errors.As(err, &se) || se.Seq != 0 {
				t.Errorf("%q: got %v, want a signature error at entry 0", line, err)
			}
		case !errors.As(err, &ce) || ce.Seq != 0:
			t.Errorf("%q: got %v, want a chain error at entry 0", line, err)
		}
	}
}
