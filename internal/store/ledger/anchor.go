package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// The ledger's trust root. Every entry carries the public key that signed
// it and a key change must be endorsed by the key before it, so the chain
// proves that one line of key holders wrote the ledger — but not which
// one: whoever can write the ledger's directory can also re-sign all of
// it with a fresh key and replace the key file next to it. An anchor kept
// outside that tree (a fingerprint the user noted, a user-level setting)
// closes the gap: verify then requires the anchored key to have signed an
// entry. One signed entry is enough, because its signature covers prev,
// which pins every earlier line, and a key change after it needs its (or
// its successors') endorsement.

// fingerprintPrefix starts every fingerprint, as in ssh-keygen -l.
const fingerprintPrefix = "SHA256:"

// Fingerprint is a public key's fingerprint in the form ssh-keygen -l
// prints for the same Ed25519 key: "SHA256:" and the unpadded base64 of
// the SHA-256 of its SSH wire encoding. It is short enough to note down
// and compare by eye, and matches what OpenSSH shows for the key.
func Fingerprint(k ed25519.PublicKey) string {
	sum := sha256.Sum256(sshBlob(k))
	return fingerprintPrefix + base64.RawStdEncoding.EncodeToString(sum[:])
}

// SSHKeyType is the key type OpenSSH names Ed25519 keys by.
const SSHKeyType = "ssh-ed25519"

// sshBlob is k's SSH wire encoding (RFC 8709): the key type and the key,
// each as a length-prefixed string.
func sshBlob(k ed25519.PublicKey) []byte {
	blob := binary.BigEndian.AppendUint32(nil, uint32(len(SSHKeyType)))
	blob = append(blob, SSHKeyType...)
	blob = binary.BigEndian.AppendUint32(blob, uint32(len(k)))
	return append(blob, k...)
}

// SSHPublicKey is k as OpenSSH writes it in authorized_keys and git in an
// allowed-signers file: "ssh-ed25519 AAAA…" (the base64 of sshBlob).
func SSHPublicKey(k ed25519.PublicKey) string {
	return SSHKeyType + " " + base64.StdEncoding.EncodeToString(sshBlob(k))
}

// ParseSSHPublicKey reads the key type and base64 fields of an OpenSSH
// public key line. Only Ed25519 keys can sign tribunal's records; the
// base64 must decode to exactly the wire encoding of such a key.
func ParseSSHPublicKey(keyType, data string) (ed25519.PublicKey, error) {
	if keyType != SSHKeyType {
		return nil, fmt.Errorf("key type %q is not %s, the only type tribunal signs with", keyType, SSHKeyType)
	}
	blob, err := base64.StdEncoding.Strict().DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("the key is not valid base64: %w", err)
	}
	want := len(sshBlob(make(ed25519.PublicKey, ed25519.PublicKeySize)))
	if len(blob) != want {
		return nil, fmt.Errorf("the key is %d bytes, not the %d of an %s public key", len(blob), want, SSHKeyType)
	}
	k := ed25519.PublicKey(blob[len(blob)-ed25519.PublicKeySize:])
	if !bytes.Equal(sshBlob(k), blob) {
		return nil, fmt.Errorf("the key's encoding does not name %s", SSHKeyType)
	}
	return k, nil
}

// DecodePublicKey reads a public key in the form entries carry it.
func DecodePublicKey(s string) (ed25519.PublicKey, error) {
	k, p := decodeKey(s)
	if p != nil {
		return nil, errors.New(p.reason)
	}
	return k, nil
}

// ParseAnchor reads an expected key as a user gives it: a fingerprint
// (SHA256:…, as keygen and verify print it) or the public key itself in
// the base64 form entries carry. It returns the fingerprint.
func ParseAnchor(s string) (string, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, fingerprintPrefix); ok {
		if b, err := base64.RawStdEncoding.Strict().DecodeString(rest); err == nil && len(b) == sha256.Size {
			return s, nil
		}
		return "", fmt.Errorf("%q is not a key fingerprint: want SHA256: and 43 base64 characters, as keygen prints", s)
	}
	if k, p := decodeKey(s); p == nil {
		return Fingerprint(k), nil
	}
	return "", fmt.Errorf("%q is neither a key fingerprint (SHA256:…) nor an Ed25519 public key in base64", s)
}

// ErrNotAnchored is wrapped by CheckAnchor's error.
var ErrNotAnchored = errors.New("the ledger is not signed by the expected key")

// CheckAnchor requires the key whose fingerprint is anchor to have signed
// an entry of the verified ledger r. A ledger with no entries has nothing
// to anchor and fails too.
func CheckAnchor(r Report, anchor string) error {
	var seen []string
	for _, k := range r.Keys {
		pub, p := decodeKey(k)
		if p != nil {
			continue // Verify accepted every key; unreachable
		}
		fp := Fingerprint(pub)
		if fp == anchor {
			return nil
		}
		seen = append(seen, fp)
	}
	if len(seen) == 0 {
		return fmt.Errorf("%w: it has no entries, so nothing is signed by %s", ErrNotAnchored, anchor)
	}
	return fmt.Errorf("%w: no entry is signed by %s; its keys are %s: it was re-signed with another key, or the anchor is not this ledger's",
		ErrNotAnchored, anchor, strings.Join(seen, ", "))
}

// KeyFingerprint is Fingerprint for a key in the form entries carry.
func KeyFingerprint(publicKey string) (string, error) {
	k, p := decodeKey(publicKey)
	if p != nil {
		return "", errors.New(p.reason)
	}
	return Fingerprint(k), nil
}
