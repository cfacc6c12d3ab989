package ledger

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLoadOrCreateKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "onlooker", "keys")
	k1, err := LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Equal(k2) {
		t.Fatal("a second load gave a different key")
	}
	// The file is a standard PKCS #8 key that other tools read.
	data, err := os.ReadFile(filepath.Join(dir, KeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatalf("not PKCS #8: %v", err)
	}
	if !k1.Equal(parsed.(ed25519.PrivateKey)) {
		t.Error("the PKCS #8 key is not the key in use")
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, KeyFileName): 0o600} {
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", p, fi.Mode().Perm(), want)
		}
	}
}

func TestLoadOrCreateKeyRefusesAnExposedKey(t *testing.T) {
	for _, mode := range []os.FileMode{0o640, 0o604, 0o660, 0o644} {
		dir := t.TempDir()
		if _, err := LoadOrCreateKey(dir); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, KeyFileName)
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		_, err := LoadOrCreateKey(dir)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %o: got %v, want an error naming %s and the chmod", mode, err, p)
		}
		// Append goes through the same check.
		_, err = Append(filepath.Join(dir, "l.jsonl"), dir, KindGate, Fields{TaskID: "t"}, struct{}{}, t0)
		if err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %o: Append got %v", mode, err)
		}
	}
}

func TestLoadOrCreateKeyRejectsGarbage(t *testing.T) {
	for name, content := range map[string]string{
		"not pem":     "hello\n",
		"wrong type":  "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
		"short body":  "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n",
		"not ed25519": "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VuBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n",
		"empty file":  "",
		"a directory": "",
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, KeyFileName)
		if name == "a directory" {
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadOrCreateKey(dir); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
}

func TestConcurrentFirstUsesAgreeOnOneKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	keys := make([]ed25519.PrivateKey, 16)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := LoadOrCreateKey(dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !k.Equal(keys[0]) {
			t.Fatal("concurrent first uses created different keys")
		}
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("key directory holds %d files, want only the key: %v", len(names), names)
	}
}

func TestRotate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	first, old, err := Rotate(dir, t0)
	if err != nil || old != "" {
		t.Fatalf("rotate with no key: %v, old %q", err, old)
	}
	second, old, err := Rotate(dir, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, KeyFileName+".20260301T120100.123456789Z.old"); old != want {
		t.Errorf("old key kept as %q, want %q", old, want)
	}
	if k, err := readKey(old); err != nil || !k.Equal(first) {
		t.Errorf("the kept key is not the previous key: %v", err)
	}
	if cur, err := LoadOrCreateKey(dir); err != nil || !cur.Equal(second) || second.Equal(first) {
		t.Errorf("the current key is not the new one: %v", err)
	}
	third, _, err := Rotate(dir, t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := Keys(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []ed25519.PrivateKey{third, first, second}
	if len(ks) != 3 || !ks[0].Current || ks[1].Current {
		t.Fatalf("Keys: %+v", ks)
	}
	for i, k := range ks {
		if k.PublicKey != PublicKeyString(want[i].Public().(ed25519.PublicKey)) {
			t.Errorf("Keys[%d] is %s", i, k.PublicKey)
		}
	}
	// The same instant twice would overwrite a kept key; it is refused.
	if _, _, err := Rotate(dir, t0.Add(2*time.Minute)); err == nil {
		t.Error("a rotation reusing an old key's name succeeded")
	}
}

// Appends after a rotation carry the old key's endorsement once, then go
// on with the new key alone; verify lists both keys.
func TestAppendAcrossRotations(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 2)
	for range 2 {
		if _, _, err := Rotate(f.keyDir, time.Now()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	// Two rotations between appends: the oldest key endorses the newest.
	es := f.fill(t, 2)
	if es[0].KeyEndorsement == "" || es[1].KeyEndorsement != "" {
		t.Errorf("endorsements %q, %q: want only on the first entry after the rotation", es[0].KeyEndorsement, es[1].KeyEndorsement)
	}
	r := mustVerify(t, f.path)
	if r.Entries != 4 || len(r.Keys) != 2 || r.Keys[1] != es[0].PublicKey {
		t.Errorf("report %+v", r)
	}
}

func TestAppendNeedsTheRotatedKey(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	_, old, err := Rotate(f.keyDir, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(old); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, f.path)
	_, err = Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, struct{}{}, t0)
	if err == nil || !strings.Contains(err.Error(), "previous key") {
		t.Fatalf("got %v, want an error about the missing previous key", err)
	}
	if string(mustRead(t, f.path)) != string(before) {
		t.Error("the refused append changed the ledger")
	}
	mustVerify(t, f.path)
}
