package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

func f(x float64) *float64 { return &x }

func sample() Receipt {
	return Receipt{Kind: KindTask, Commit: strings.Repeat("c", 40), Tree: strings.Repeat("e", 40),
		Judged: Judged{BaseTree: strings.Repeat("b", 40), Tree: strings.Repeat("e", 40), DiffSHA256: strings.Repeat("d", 64), Match: MatchTree},
		Verdict: Verdict{Outcome: "accepted", Passed: true, Score: f(0.86), TaskID: "01JTASK",
			Judges: []Judge{{ID: "j1", Type: "standard", Score: f(0.9), Passed: true}, {ID: "j2", Type: "adversarial", Score: f(0.8), Passed: true}},
			Rubric: Rubric{ID: "default", SHA256: strings.Repeat("a", 64)}, JudgedAt: "2026-12-04T11:00:00Z"}}
}

func signed(t *testing.T, r Receipt, seed byte) []byte {
	t.Helper()
	s, err := Sign(r, testKey(seed), t0)
	if err != nil {
		t.Fatal(err)
	}
	line, err := s.Line()
	if err != nil {
		t.Fatal(err)
	}
	return line
}

func TestSignParseRoundTrip(t *testing.T) {
	line := signed(t, sample(), 1)
	r, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tree != sample().Tree || r.Outcome != "accepted" || r.Signer.Fingerprint == "" || r.SignedAt != "2026-12-04T12:00:00Z" {
		t.Errorf("parsed %+v", r)
	}
	want := "tribunal: accepted 0.86 (standard 0.9, adversarial 0.8) task 01JTASK rubric default sha256:aaaaaaaa signer " + r.Signer.Fingerprint
	if got := r.Summary(); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

// Every edit of a signed line is a bad signature, whether or not it
// changes what the line means.
func TestParseRefusesEdits(t *testing.T) {
	line := string(signed(t, sample(), 1))
	other := sample()
	other.Passed = false
	otherKey := string(signed(t, other, 2))
	_, otherSigner, _ := strings.Cut(otherKey, `"signer":`)
	for _, tc := range []struct {
		name, line, err string
	}{
		{"score raised", strings.Replace(line, `"score":0.86`, `"score":0.96`, 1), "does not verify"},
		{"tree swapped", strings.Replace(line, `"tree":"eeee`, `"tree":"ffff`, 1), "does not verify"},
		{"truncated", line[:len(line)/2], "not valid JSON (truncated or edited)"},
		{"a space", strings.Replace(line, `,"kind"`, `, "kind"`, 1), "not in canonical form"},
		{"member name case", strings.Replace(line, `"outcome"`, `"outcomE"`, 1), "it was edited"},
		{"an added null", strings.Replace(line, `{"base_tree"`, `{"base":null,"base_tree"`, 1), "it was edited"},
		{"unknown member", strings.Replace(line, `{"base_tree"`, `{"aaa":1,"base_tree"`, 1), "not a receipt"},
		{"another signer claimed", strings.Replace(line, line[strings.Index(line, `"signer":`)+9:], otherSigner, 1), "does not verify"},
		{"version", strings.Replace(line, `"receipt":1`, `"receipt":2`, 1), "not a version 1 receipt"},
		{"not an object", `["x"]`, "not a version 1 receipt"},
	} {
		_, err := Parse([]byte(tc.line))
		if !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %v, want ErrSignature with %q", tc.name, err, tc.err)
		}
	}
}

// The receipt signature is domain-separated: the same key's signature over
// the bare canonical bytes (what a ledger entry's signature covers) is no
// receipt signature.
func TestSignatureDomain(t *testing.T) {
	r, err := Sign(sample(), testKey(1), t0)
	if err != nil {
		t.Fatal(err)
	}
	r.Sig = ""
	body, _ := canonical(r)
	r.Sig = b64(ed25519.Sign(testKey(1), body))
	line, _ := r.Line()
	if _, err := Parse(line); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Errorf("an undomained signature: %v", err)
	}
}

func TestSummaryKeepsToOneLine(t *testing.T) {
	r := sample()
	r.Outcome = "acc\nepted"
	r.Judges = []Judge{{Type: "a b\x1b[31m"}}
	r.Rubric.ID = ""
	got := r.Summary()
	if strings.ContainsAny(got, "\n\x1b") || !strings.Contains(got, "acc?epted") || !strings.Contains(got, "(a_b?[31m)") || !strings.Contains(got, "rubric -") {
		t.Errorf("summary %q", got)
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
