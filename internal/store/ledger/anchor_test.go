package ledger

import (
	"crypto/ed25519"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// The fingerprint is the one ssh-keygen -l prints for the same key
// (vector from OpenSSH: ssh-keygen -t ed25519, then -lf on the .pub).
func TestFingerprintMatchesOpenSSH(t *testing.T) {
	const pub = "+xHlLBEBkSN5jkf5IdA+Lgsd+x8EAQwP6ucC0MrwZfQ="
	fp, err := KeyFingerprint(pub)
	if err != nil {
		t.Fatal(err)
	}
	if want := "SHA256:eLjm/x9Ynxi73qlG3wueZajgL9wpNOozWKUlNI93JvI"; fp != want {
		t.Errorf("got %s, want %s", fp, want)
	}
}

func TestParseAnchor(t *testing.T) {
	const fp = "SHA256:eLjm/x9Ynxi73qlG3wueZajgL9wpNOozWKUlNI93JvI"
	for _, tc := range []struct{ in, want, err string }{
		{fp, fp, ""},
		{"  " + fp + "\n", fp, ""},
		{"+xHlLBEBkSN5jkf5IdA+Lgsd+x8EAQwP6ucC0MrwZfQ=", fp, ""},
		{"SHA256:eLjm/x9Ynxi73qlG3wueZajgL9wpNOozWKUlNI93Jv", "", "not a key fingerprint"},
		{"SHA256:eLjm/x9Ynxi73qlG3wueZajgL9wpNOozWKUlNI93JvI=", "", "not a key fingerprint"},
		{"MD5:aa:bb", "", "neither a key fingerprint"},
		{"", "", "neither a key fingerprint"},
	} {
		got, err := ParseAnchor(tc.in)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseAnchor(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func currentFingerprint(t *testing.T, keyDir string) string {
	t.Helper()
	k, err := LoadOrCreateKey(keyDir)
	if err != nil {
		t.Fatal(err)
	}
	return Fingerprint(k.Public().(ed25519.PublicKey))
}

// The attack the anchor stops: the whole ledger re-signed with a new key
// and the key file replaced. It verifies on its own; against the
// fingerprint noted before, it does not.
func TestReSignedLedgerFailsTheAnchor(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 3)
	anchor := currentFingerprint(t, f.keyDir)
	if err := CheckAnchor(mustVerify(t, f.path), anchor); err != nil {
		t.Fatalf("the genuine ledger: %v", err)
	}

	// The attacker writes the same number of entries from scratch with a
	// key of their own, in place of the ledger, its head and the key.
	for _, p := range []string{f.path, HeadPath(f.path), f.keyDir} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	f.fill(t, 3)
	forged := mustVerify(t, f.path)
	err := CheckAnchor(forged, anchor)
	if !errors.Is(err, ErrNotAnchored) || !strings.Contains(err.Error(), currentFingerprint(t, f.keyDir)) {
		t.Fatalf("the re-signed ledger: %v, want ErrNotAnchored naming the key it has", err)
	}
	if err := CheckAnchor(forged, currentFingerprint(t, f.keyDir)); err != nil {
		t.Errorf("the attacker's own key: %v", err)
	}
}

// After a rotation both the old and the new key anchor the ledger: the
// new one was endorsed by the old.
func TestAnchorAcrossRotation(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 2)
	old := currentFingerprint(t, f.keyDir)
	if _, _, err := Rotate(f.keyDir, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	f.fill(t, 2)
	r := mustVerify(t, f.path)
	for _, a := range []string{old, currentFingerprint(t, f.keyDir)} {
		if err := CheckAnchor(r, a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
}

func TestEmptyLedgerIsNotAnchored(t *testing.T) {
	if err := CheckAnchor(Report{}, "SHA256:x"); !errors.Is(err, ErrNotAnchored) {
		t.Errorf("got %v", err)
	}
}

// The OpenSSH form of a key is what ssh-keygen writes in a .pub file and
// git reads from an allowed-signers file; it reads back to the same key
// and only to an Ed25519 key.
func TestSSHPublicKey(t *testing.T) {
	k, err := DecodePublicKey("+xHlLBEBkSN5jkf5IdA+Lgsd+x8EAQwP6ucC0MrwZfQ=")
	if err != nil {
		t.Fatal(err)
	}
	line := SSHPublicKey(k)
	// Every Ed25519 key's wire encoding starts with these base64 bytes.
	if !strings.HasPrefix(line, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI") {
		t.Fatalf("got %q", line)
	}
	typ, data, _ := strings.Cut(line, " ")
	back, err := ParseSSHPublicKey(typ, data)
	if err != nil || !back.Equal(k) {
		t.Fatalf("round trip: %v, %v", back, err)
	}
	for _, tc := range []struct{ typ, data, err string }{
		{"ssh-rsa", data, "is not ssh-ed25519"},
		{typ, data[:len(data)-4], "bytes, not the 51"},
		{typ, "!!", "not valid base64"},
		// The right length, the wrong type name inside.
		{typ, "AAAAC3NzaC1lZDI1NTE4" + data[20:], "does not name ssh-ed25519"},
	} {
		if _, err := ParseSSHPublicKey(tc.typ, tc.data); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseSSHPublicKey(%q, %q) = %v, want %q", tc.typ, tc.data, err, tc.err)
		}
	}
}
