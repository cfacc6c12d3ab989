package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
)

// forger rewrites ledger entries with a key of its own, as an attacker who
// can write the files but does not hold the user's key would.
type forger struct {
	t   *testing.T
	key ed25519.PrivateKey
}

func newForger(t *testing.T) forger {
	_, k, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return forger{t: t, key: k}
}

func (g forger) pub() string { return PublicKeyString(g.key.Public().(ed25519.PublicKey)) }

// sign returns e as a signed line (with newline) and its hash; endorser,
// when not nil, signs a key_endorsement.
func (g forger) sign(e Entry, endorser ed25519.PrivateKey) ([]byte, string) {
	g.t.Helper()
	e.PublicKey, e.Sig, e.KeyEndorsement = g.pub(), "", ""
	body, err := marshalCanonical(e)
	if err != nil {
		g.t.Fatal(err)
	}
	if endorser != nil {
		e.KeyEndorsement = b64.EncodeToString(ed25519.Sign(endorser, body))
		body, _ = marshalCanonical(e)
	}
	e.Sig = b64.EncodeToString(ed25519.Sign(g.key, body))
	line, _ := marshalCanonical(e)
	l, p := parseLine(line)
	if p != nil {
		g.t.Fatalf("forged line does not parse: %s", p.reason)
	}
	return append(line, '\n'), l.Hash
}

// rewrite re-signs entries from..end with the forger's key, changing
// entry from's record and re-chaining the rest, and signs a new head.
func (g forger) rewrite(f fixture, from int, endorser ed25519.PrivateKey) {
	g.t.Helper()
	ledger, _ := f.read(g.t)
	lines := splitLines(ledger)
	prev := zeroHash
	if from > 0 {
		l, _ := parseLine(bytes.TrimSuffix(lines[from-1], []byte("\n")))
		prev = l.Hash
	}
	for i := from; i < len(lines); i++ {
		l, p := parseLine(bytes.TrimSuffix(lines[i], []byte("\n")))
		if p != nil {
			g.t.Fatal(p.reason)
		}
		e := l.Entry
		e.Prev = prev
		if i == from {
			e.Record = json.RawMessage(`{"outcome":"accept","score":1}`)
		}
		var en ed25519.PrivateKey
		if i == from {
			en = endorser
		}
		lines[i], prev = g.sign(e, en)
	}
	f.write(g.t, bytes.Join(lines, nil), nil)
	if err := writeHead(f.path, &Head{Entries: int64(len(lines)), Hash: prev}, g.key); err != nil {
		g.t.Fatal(err)
	}
}

func TestForgeries(t *testing.T) {
	t.Run("one entry re-signed with another key", func(t *testing.T) {
		f := newFixture(t)
		f.fill(t, 5)
		g := newForger(t)
		ledger, head := f.read(t)
		lines := splitLines(ledger)
		l, _ := parseLine(bytes.TrimSuffix(lines[2], []byte("\n")))
		l.Record = json.RawMessage(`{"outcome":"accept"}`)
		lines[2], _ = g.sign(l.Entry, nil)
		f.write(t, bytes.Join(lines, nil), head)
		_, err := Verify(f.path)
		if se := wantSig(t, err, 2); !strings.Contains(se.Reason, "never endorsed") {
			t.Errorf("reason %q", se.Reason)
		}
	})
	t.Run("the tail re-signed and re-chained, head too", func(t *testing.T) {
		f := newFixture(t)
		f.fill(t, 5)
		g := newForger(t)
		g.rewrite(f, 2, nil)
		_, err := Verify(f.path)
		wantSig(t, err, 2)
	})
	t.Run("the tail with an endorsement the forger signed itself", func(t *testing.T) {
		f := newFixture(t)
		f.fill(t, 5)
		g := newForger(t)
		g.rewrite(f, 2, g.key)
		_, err := Verify(f.path)
		if se := wantSig(t, err, 2); !strings.Contains(se.Reason, "endorsement does not verify") {
			t.Errorf("reason %q", se.Reason)
		}
	})
	t.Run("an entry appended with another key", func(t *testing.T) {
		f := newFixture(t)
		es := f.fill(t, 3)
		g := newForger(t)
		ledger, _ := f.read(t)
		line, hash := g.sign(Entry{Seq: 3, Prev: es[2].Hash, Time: es[2].Time, Kind: KindGate, TaskID: "x",
			Record: json.RawMessage(`{}`)}, nil)
		f.write(t, append(ledger, line...), nil)
		if err := writeHead(f.path, &Head{Entries: 4, Hash: hash}, g.key); err != nil {
			t.Fatal(err)
		}
		_, err := Verify(f.path)
		wantSig(t, err, 3)
		// Append, too, refuses to build on it.
		if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, struct{}{}, t0); err == nil {
			t.Error("Append accepted a forged entry beyond the head")
		}
	})
	t.Run("the head re-signed with another key", func(t *testing.T) {
		f := newFixture(t)
		es := f.fill(t, 3)
		g := newForger(t)
		if err := writeHead(f.path, &Head{Entries: 3, Hash: es[2].Hash}, g.key); err != nil {
			t.Fatal(err)
		}
		_, err := Verify(f.path)
		if se := wantSig(t, err, 2); !strings.Contains(se.Reason, "head is signed by key") {
			t.Errorf("reason %q", se.Reason)
		}
	})
	t.Run("entry 0 re-signed with another key", func(t *testing.T) {
		f := newFixture(t)
		f.fill(t, 3)
		g := newForger(t)
		ledger, head := f.read(t)
		lines := splitLines(ledger)
		l, _ := parseLine(bytes.TrimSuffix(lines[0], []byte("\n")))
		l.Record = json.RawMessage(`{"outcome":"accept"}`)
		lines[0], _ = g.sign(l.Entry, nil)
		f.write(t, bytes.Join(lines, nil), head)
		_, err := Verify(f.path)
		wantChain(t, err, 1)
	})
	// The documented limit: a whole ledger rewritten under another key is
	// consistent; what gives it away is a key the user does not hold,
	// which Verify reports and the CLI checks against the key directory.
	t.Run("the whole ledger re-signed", func(t *testing.T) {
		f := newFixture(t)
		es := f.fill(t, 3)
		g := newForger(t)
		g.rewrite(f, 0, nil)
		r := mustVerify(t, f.path)
		if len(r.Keys) != 1 || r.Keys[0] != g.pub() || r.Keys[0] == es[0].PublicKey {
			t.Errorf("keys %v: want only the forger's", r.Keys)
		}
	})
}
