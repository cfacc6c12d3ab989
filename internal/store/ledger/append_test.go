package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/jcs"
)

func TestAppendWritesAChain(t *testing.T) {
	f := newFixture(t)
	entries := f.fill(t, 3)
	data, _ := f.read(t)
	lines := splitLines(data)
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), data)
	}
	key, err := LoadOrCreateKey(f.keyDir)
	if err != nil {
		t.Fatal(err)
	}
	pub := PublicKeyString(key.Public().(ed25519.PublicKey))
	for i, e := range entries {
		raw := bytes.TrimSuffix(lines[i], []byte("\n"))
		sum := sha256.Sum256(raw)
		if e.Hash != hex.EncodeToString(sum[:]) {
			t.Errorf("entry %d: Hash %s is not the SHA-256 of its line", i, e.Hash)
		}
		wantPrev := zeroHash
		if i > 0 {
			wantPrev = entries[i-1].Hash
		}
		if e.Seq != int64(i) || e.Prev != wantPrev || e.PublicKey != pub || e.KeyEndorsement != "" {
			t.Errorf("entry %d: seq %d prev %s key %s endorsement %q", i, e.Seq, e.Prev, e.PublicKey, e.KeyEndorsement)
		}
		if c, err := jcs.Canonicalize(raw); err != nil || !bytes.Equal(c, raw) {
			t.Errorf("line %d is not canonical JSON: %s", i+1, raw)
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			t.Fatal(err)
		}
		_, hasSession := obj["session_id"]
		_, hasIteration := obj["iteration_id"]
		if hasSession != (e.Kind == KindAdvisory) || hasIteration != (e.Kind == KindGate) {
			t.Errorf("line %d: optional ids present wrongly: %s", i+1, raw)
		}
	}
	if entries[0].Time != "2026-03-01T12:00:00.123456789Z" || entries[1].Kind != KindAdvisory {
		t.Errorf("entry 0 time %q, entry 1 kind %q", entries[0].Time, entries[1].Kind)
	}
	if want := `{"feedback":"line one\nline \"two\" <ok> — 😀","iteration":0,"outcome":"accept","score":0.7000000000000001}`; string(entries[0].Record) != want {
		t.Errorf("record stored as %s, want %s", entries[0].Record, want)
	}
	r := mustVerify(t, f.path)
	if r.Entries != 3 || len(r.Keys) != 1 || r.Keys[0] != pub {
		t.Errorf("report %+v", r)
	}
	if r.Head.Entries != 3 || r.Head.Hash != entries[2].Hash || r.Head.PublicKey != pub {
		t.Errorf("head %+v", r.Head)
	}
	for p, want := range map[string]os.FileMode{
		f.path: 0o600, HeadPath(f.path): 0o600, filepath.Dir(f.path): 0o700,
		f.keyDir: 0o700, filepath.Join(f.keyDir, KeyFileName): 0o600,
	} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %o, want %o", p, fi.Mode().Perm(), want)
		}
	}
}

func TestAppendRecordForms(t *testing.T) {
	type rec struct {
		Score   float64 `json:"score"`
		Outcome string  `json:"outcome"`
	}
	for _, tc := range []struct {
		name   string
		record any
		want   string
	}{
		{"struct", rec{Score: 0.5, Outcome: "accept"}, `{"outcome":"accept","score":0.5}`},
		{"map", map[string]any{"b": []int{1, 2}, "a": nil}, `{"a":null,"b":[1,2]}`},
		{"raw message", json.RawMessage("{ \"z\" : 1.50 ,\n \"a\" : \"\\u00e9\" }"), `{"a":"é","z":1.5}`},
		{"empty object", struct{}{}, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			e, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, tc.record, t0)
			if err != nil {
				t.Fatal(err)
			}
			if string(e.Record) != tc.want {
				t.Errorf("record %s, want %s", e.Record, tc.want)
			}
			mustVerify(t, f.path)
		})
	}
}

func TestAppendRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kind   string
		fields Fields
		record any
		want   string
	}{
		{"unknown kind", "verdict", Fields{TaskID: "t"}, map[string]int{}, "kind"},
		{"no task id", KindGate, Fields{SessionID: "s"}, map[string]int{}, "task id"},
		{"array record", KindGate, Fields{TaskID: "t"}, []int{1}, "object"},
		{"string record", KindGate, Fields{TaskID: "t"}, "accept", "object"},
		{"null record", KindGate, Fields{TaskID: "t"}, nil, "object"},
		{"NaN in record", KindGate, Fields{TaskID: "t"}, map[string]float64{"s": math.NaN()}, "record"},
		{"broken raw record", KindGate, Fields{TaskID: "t"}, json.RawMessage(`{"a":`), "record"},
		{"duplicate names in raw record", KindGate, Fields{TaskID: "t"}, json.RawMessage(`{"a":1,"a":2}`), "duplicate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			_, err := Append(f.path, f.keyDir, tc.kind, tc.fields, tc.record, t0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error about %q", err, tc.want)
			}
			if _, err := os.Stat(f.path); !os.IsNotExist(err) {
				t.Errorf("a refused append created the ledger")
			}
		})
	}
}

// An append must not build on a ledger whose end disagrees with its head:
// it refuses, names verify, and leaves both files as they were.
func TestAppendRefusesWhenTheHeadDisagrees(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, f fixture, ledger, head []byte)
	}{
		{"last line cut off", func(t *testing.T, f fixture, l, h []byte) {
			lines := splitLines(l)
			f.write(t, bytes.Join(lines[:len(lines)-1], nil), h)
		}},
		{"all lines cut off", func(t *testing.T, f fixture, l, h []byte) { f.write(t, nil, h) }},
		{"ledger deleted", func(t *testing.T, f fixture, l, h []byte) { os.Remove(f.path) }},
		{"head deleted", func(t *testing.T, f fixture, l, h []byte) { f.write(t, l, nil) }},
		{"last line edited", func(t *testing.T, f fixture, l, h []byte) {
			f.write(t, bytes.Replace(l, []byte(`"outcome":"retry"`), []byte(`"outcome":"rerun"`), -1), h)
		}},
		{"head edited", func(t *testing.T, f fixture, l, h []byte) {
			f.write(t, l, bytes.Replace(h, []byte(`"entries":4`), []byte(`"entries":3`), 1))
		}},
		{"last two lines swapped", func(t *testing.T, f fixture, l, h []byte) {
			lines := splitLines(l)
			lines[2], lines[3] = lines[3], lines[2]
			f.write(t, bytes.Join(lines, nil), h)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.fill(t, 4)
			l, h := f.read(t)
			tc.damage(t, f, l, h)
			before, _ := os.ReadFile(f.path)
			beforeHead, _ := os.ReadFile(HeadPath(f.path))
			_, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]int{}, t0)
			if !errors.Is(err, ErrHeadMismatch) || !strings.Contains(err.Error(), "tribunal-session verify") {
				t.Fatalf("got %v, want ErrHeadMismatch naming verify", err)
			}
			after, errAfter := os.ReadFile(f.path)
			afterHead, _ := os.ReadFile(HeadPath(f.path))
			if !bytes.Equal(before, after) || !bytes.Equal(beforeHead, afterHead) || (before == nil) != os.IsNotExist(errAfter) {
				t.Errorf("the refused append changed the files")
			}
		})
	}
}

// A crash between writing a line and replacing the head leaves one signed
// entry beyond the head: verify reports it, the next append adopts it.
func TestAppendRepairsAnInterruptedHeadUpdate(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 2)
	_, oldHead := f.read(t)
	f.fill(t, 1)
	l, _ := f.read(t)
	f.write(t, l, oldHead)
	_, err := Verify(f.path)
	if ce := wantChain(t, err, 2); !strings.Contains(ce.Reason, "beyond the head") {
		t.Errorf("reason %q", ce.Reason)
	}
	e, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]int{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 3 {
		t.Errorf("seq %d, want 3", e.Seq)
	}
	if r := mustVerify(t, f.path); r.Entries != 4 {
		t.Errorf("%d entries, want 4", r.Entries)
	}
}

// The same crash on the very first append: the head written before the
// first line pins zero entries.
func TestAppendRepairsAnInterruptedFirstAppend(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	l, _ := f.read(t)
	key, err := LoadOrCreateKey(f.keyDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeHead(f.path, &Head{Entries: 0, Hash: zeroHash}, key); err != nil {
		t.Fatal(err)
	}
	f.write(t, nil, mustRead(t, HeadPath(f.path)))
	if r := mustVerify(t, f.path); r.Entries != 0 {
		t.Fatalf("empty ledger with its first head: %+v", r)
	}
	f.write(t, l, mustRead(t, HeadPath(f.path)))
	_, err = Verify(f.path)
	wantChain(t, err, 0)
	if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]int{}, t0); err != nil {
		t.Fatal(err)
	}
	if r := mustVerify(t, f.path); r.Entries != 2 {
		t.Errorf("%d entries, want 2", r.Entries)
	}
}

// A crash in the middle of writing a line leaves an incomplete line after
// the last pinned entry; the next append drops it.
func TestAppendDropsAnIncompleteLastLine(t *testing.T) {
	for _, n := range []int{0, 3} {
		f := newFixture(t)
		f.fill(t, n)
		if n == 0 {
			// A ledger with a head and no entries.
			f.fill(t, 1)
			key, _ := LoadOrCreateKey(f.keyDir)
			if err := writeHead(f.path, &Head{Hash: zeroHash}, key); err != nil {
				t.Fatal(err)
			}
			f.write(t, nil, mustRead(t, HeadPath(f.path)))
		}
		l, h := f.read(t)
		f.write(t, append(l, `{"seq":`+string(rune('0'+n))+`,"prev":"ab`...), h)
		_, err := Verify(f.path)
		if ce := wantChain(t, err, int64(n)); !strings.Contains(ce.Reason, "incomplete") {
			t.Errorf("reason %q", ce.Reason)
		}
		e, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]int{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq != int64(n) {
			t.Errorf("seq %d, want %d", e.Seq, n)
		}
		if r := mustVerify(t, f.path); r.Entries != int64(n)+1 {
			t.Errorf("%d entries, want %d", r.Entries, n+1)
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
