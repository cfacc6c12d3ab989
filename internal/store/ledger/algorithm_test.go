package ledger

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// signRaw signs e with key as Append would, without checking the line:
// a line this tribunal would refuse to write, as another would.
func signRaw(t *testing.T, e Entry, key ed25519.PrivateKey) ([]byte, string) {
	t.Helper()
	e.PublicKey, e.Sig = PublicKeyString(key.Public().(ed25519.PublicKey)), ""
	body, err := marshalCanonical(e)
	if err != nil {
		t.Fatal(err)
	}
	e.Sig = b64.EncodeToString(ed25519.Sign(key, body))
	line, _ := marshalCanonical(e)
	sum := sha256.Sum256(line)
	return append(line, '\n'), hex.EncodeToString(sum[:])
}

// TestAlgorithmField: new entries say "ed25519"; an entry without the
// field (written before it existed) still verifies; an entry naming
// another algorithm is refused, saying which (spec §11, issue 32).
func TestAlgorithmField(t *testing.T) {
	f := newFixture(t)
	entries := f.fill(t, 1)
	ledger, _ := f.read(t)
	if entries[0].Algorithm != AlgorithmEd25519 || !strings.Contains(string(ledger), `"algorithm":"ed25519"`) {
		t.Fatalf("a new entry does not name its algorithm: %s", ledger)
	}
	key, err := LoadOrCreateKey(f.keyDir)
	if err != nil {
		t.Fatal(err)
	}
	base := Entry{Seq: 0, Prev: zeroHash, Time: t0.Format(time.RFC3339Nano), Kind: KindGate,
		TaskID: "01JTASK", Record: json.RawMessage(`{"outcome":"accept"}`)}
	for _, tt := range []struct {
		algorithm, want string
	}{
		{"", ""},
		{AlgorithmEd25519, ""},
		{"ml-dsa-65", `signed with algorithm "ml-dsa-65", which this tribunal cannot verify (it knows "ed25519" only)`},
		{"Ed25519", `signed with algorithm "Ed25519"`},
	} {
		t.Run(tt.algorithm, func(t *testing.T) {
			e := base
			e.Algorithm = tt.algorithm
			line, hash := signRaw(t, e, key)
			f.write(t, line, nil)
			if err := writeHead(f.path, &Head{Entries: 1, Hash: hash}, key); err != nil {
				t.Fatal(err)
			}
			_, err := Verify(f.path)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				return
			}
			se := wantSig(t, err, 0)
			if !strings.Contains(se.Error(), tt.want) {
				t.Errorf("error %q lacks %q", se.Error(), tt.want)
			}
		})
	}
}
