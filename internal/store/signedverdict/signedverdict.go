// Package signedverdict is the signed verdict file (spec §11.7): one
// verdict on an answer, the digests of what was judged and the signer's
// key, signed with the ledger's Ed25519 key over its RFC 8785 canonical
// form, and checked offline against an allowed-signers file.
package signedverdict

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Version is the "signed_verdict" member of every file this package
// writes.
const Version = 1

// Algorithm is the signature algorithm, named in the file.
const Algorithm = "ed25519"

// signingDomain prefixes the signed bytes, so that no signature over a
// verdict file can pass for a ledger entry's or a receipt's (the same key
// signs all three), nor the other way round.
const signingDomain = "tribunal-verdict-v1\x00"

// File is a signed verdict file.
type File struct {
	SignedVerdict int             `json:"signed_verdict"`
	Verdict       Verdict         `json:"verdict"`
	Digests       records.Digests `json:"digests"`
	SignedAt      string          `json:"signed_at"`
	Signer        receipt.Signer  `json:"signer"`
	Algorithm     string          `json:"algorithm"`
	// Signature is the standard base64 Ed25519 signature over the
	// canonical JSON of the file without this member.
	Signature string `json:"signature,omitempty"`
}

// Verdict is the decision the file vouches for.
type Verdict struct {
	// ID is the judged answer's record id; CaseID a batch case's id.
	ID      string `json:"id"`
	CaseID  string `json:"case_id,omitempty"`
	Outcome string `json:"outcome"`
	Passed  bool   `json:"passed"`
	// Score is the jury's aggregate (absent with no verdict).
	Score     *float64 `json:"score,omitempty"`
	Threshold float64  `json:"threshold"`
	Reason    string   `json:"reason"`
	RubricID  string   `json:"rubric_id"`
	// Checks are the deterministic checks by name: passed or not.
	Checks        map[string]bool `json:"checks,omitempty"`
	Findings      int             `json:"findings"`
	WorstSeverity string          `json:"worst_severity,omitempty"`
}

// Sign fills in the signer, the time and the signature; the result's
// Bytes are what a file holds.
func Sign(f File, key ed25519.PrivateKey, now time.Time) (File, error) {
	pub := key.Public().(ed25519.PublicKey)
	f.SignedVerdict, f.Algorithm = Version, Algorithm
	f.SignedAt = now.UTC().Format(time.RFC3339)
	f.Signer = receipt.Signer{PublicKey: ledger.PublicKeyString(pub), Fingerprint: ledger.Fingerprint(pub)}
	f.Signature = ""
	body, err := canonical(f)
	if err != nil {
		return File{}, err
	}
	f.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, append([]byte(signingDomain), body...)))
	return f, nil
}

// Bytes is f's canonical JSON and a line end.
func (f File) Bytes() ([]byte, error) {
	b, err := canonical(f)
	return append(b, '\n'), err
}

func canonical(f File) ([]byte, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("verdict file: %w", err)
	}
	return jcs.Canonicalize(b)
}

// ErrSignature is wrapped by Parse's errors about a file that is not
// what its signer signed.
var ErrSignature = errors.New("bad verdict file")

// Parse reads a verdict file and checks its signature against the key it
// names. The file's JSON must read back to exactly the members tribunal
// writes: an unknown member, a changed value or a wrong signature fail.
func Parse(data []byte) (File, error) {
	data = bytes.TrimRight(data, "\r\n")
	c, err := jcs.Canonicalize(data)
	if err != nil {
		return File{}, fmt.Errorf("%w: not valid JSON (truncated or edited): %v", ErrSignature, err)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("%w: not a verdict file: %v", ErrSignature, err)
	}
	if f.SignedVerdict != Version || f.Algorithm != Algorithm {
		return File{}, fmt.Errorf("%w: not a version %d %s verdict file", ErrSignature, Version, Algorithm)
	}
	// Decoding is lenient (names match case-insensitively, a null reads
	// as absent): the file must render back to what it says, so the
	// signature below covers every member as written.
	if again, err := canonical(f); err != nil || !bytes.Equal(again, c) {
		return File{}, fmt.Errorf("%w: not a verdict file as tribunal writes it: it was edited after it was signed", ErrSignature)
	}
	pub, err := ledger.DecodePublicKey(f.Signer.PublicKey)
	if err != nil {
		return File{}, fmt.Errorf("%w: signer: %v", ErrSignature, err)
	}
	if fp := ledger.Fingerprint(pub); fp != f.Signer.Fingerprint {
		return File{}, fmt.Errorf("%w: the signer's fingerprint %s is not its key's (%s)", ErrSignature, f.Signer.Fingerprint, fp)
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(f.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return File{}, fmt.Errorf("%w: signature is not a base64 Ed25519 signature", ErrSignature)
	}
	unsigned := f
	unsigned.Signature = ""
	body, err := canonical(unsigned)
	if err != nil {
		return File{}, err
	}
	if !ed25519.Verify(pub, append([]byte(signingDomain), body...), sig) {
		return File{}, fmt.Errorf("%w: the signature by %s does not verify: the file was changed after it was signed", ErrSignature, f.Signer.Fingerprint)
	}
	return f, nil
}

// Verify is verify-receipt's check for one file: a bad signature, then a
// signer the allowed-signers file does not allow, then a verdict that did
// not pass; Valid with the signer's principal otherwise.
func Verify(data []byte, signers receipt.Signers) (receipt.Status, string, *File) {
	f, err := Parse(data)
	if err != nil {
		return receipt.BadSignature, err.Error(), nil
	}
	p, why, ok := signers.Allowed(f.Signer.PublicKey)
	switch {
	case !ok && why == "":
		return receipt.NotAllowed, fmt.Sprintf("signed by %s, which the allowed-signers file does not list", f.Signer.Fingerprint), &f
	case !ok:
		return receipt.NotAllowed, fmt.Sprintf("signed by %s, which the allowed-signers file lists but does not allow to sign now: %s", f.Signer.Fingerprint, why), &f
	case !f.Verdict.Passed:
		return receipt.NotPassed, fmt.Sprintf("signed by %s (%s): the verdict is %s: %s", p, f.Signer.Fingerprint, f.Verdict.Outcome, f.Verdict.Reason), &f
	}
	return receipt.Valid, fmt.Sprintf("signed by %s (%s): %s", p, f.Signer.Fingerprint, f.Verdict.Outcome), &f
}
