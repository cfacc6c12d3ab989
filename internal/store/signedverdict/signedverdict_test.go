package signedverdict

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

func signed(t *testing.T, key ed25519.PrivateKey, passed bool) []byte {
	t.Helper()
	f, err := Sign(File{Verdict: Verdict{ID: "01A", Outcome: "accepted", Passed: passed, Threshold: 0.7, Reason: "ok", RubricID: "answer"},
		Digests: records.Digests{Question: "q", Answer: "a"}}, key, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVerify: each status verify-receipt has, for a verdict file.
func TestVerify(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(nil)
	_, other, _ := ed25519.GenerateKey(nil)
	line := receipt.SignerLine("me@example.com", key.Public().(ed25519.PublicKey))
	signers, _, err := receipt.ParseSigners("allowed", []byte(line+"\n"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	good := signed(t, key, true)
	tests := []struct {
		name string
		data []byte
		want receipt.Status
		why  string
	}{
		{"valid", good, receipt.Valid, "signed by me@example.com"},
		{"not passed", signed(t, key, false), receipt.NotPassed, "the verdict is accepted"},
		{"other signer", signed(t, other, true), receipt.NotAllowed, "does not list"},
		{"tampered verdict", bytes.Replace(good, []byte(`"threshold":0.7`), []byte(`"threshold":0.1`), 1), receipt.BadSignature, "does not verify"},
		// The signature is over the canonical form: reformatting keeps it.
		{"reformatted", bytes.Replace(good, []byte(`{`), []byte("{\n  "), 1), receipt.Valid, "signed by"},
		{"member case", bytes.Replace(good, []byte(`"passed"`), []byte(`"Passed"`), 1), receipt.BadSignature, "as tribunal writes it"},
		{"unknown member", bytes.Replace(good, []byte(`{`), []byte(`{"a":1,`), 1), receipt.BadSignature, "unknown field"},
		{"truncated", good[:len(good)/2], receipt.BadSignature, "not valid JSON"},
		{"algorithm", bytes.Replace(good, []byte(`"ed25519"`), []byte(`"rsa"`), 1), receipt.BadSignature, "not a version 1 ed25519"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, why, _ := Verify(tc.data, signers)
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("Verify = %v %q, want %v containing %q", got, why, tc.want, tc.why)
			}
		})
	}
	if !bytes.Contains(good, []byte(`"algorithm":"ed25519"`)) {
		t.Errorf("no algorithm member: %s", good)
	}
}
