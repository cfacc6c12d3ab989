package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
)

// b64 is strict standard base64: the default decoder ignores the unused
// low bits of the final character, which would let one byte of a stored
// key or signature change without changing what it decodes to.
var b64 = base64.StdEncoding.Strict()

// problem is what is wrong with one line or the head, before its position
// in the file is known.
type problem struct {
	sig    bool
	reason string
}

func chainProblem(format string, args ...any) *problem {
	return &problem{reason: fmt.Sprintf(format, args...)}
}

func sigProblem(format string, args ...any) *problem {
	return &problem{sig: true, reason: fmt.Sprintf(format, args...)}
}

// at places p at an entry, giving the error type the caller branches on.
func (p *problem) at(seq int64, line int) error {
	if p.sig {
		return &SignatureError{Seq: seq, Line: line, Reason: p.reason}
	}
	return &ChainError{Seq: seq, Line: line, Reason: p.reason}
}

// marshalCanonical is the one way this package turns a value into the
// bytes it hashes, signs and stores.
func marshalCanonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jcs.Canonicalize(b)
}

// canonicalObject requires b to be one JSON object already in
// canonical form. Requiring the stored bytes to be canonical, rather than
// canonicalising them before checking, is what makes every byte count: an
// edit that keeps the meaning (an escape spelt in upper case, a space)
// would otherwise verify.
func canonicalObject(b []byte) (map[string]json.RawMessage, *problem) {
	c, err := jcs.Canonicalize(b)
	if err != nil {
		return nil, chainProblem("not valid JSON: %v", err)
	}
	if !bytes.Equal(c, b) {
		return nil, chainProblem("not in canonical form: it was edited")
	}
	var raw map[string]json.RawMessage
	if b[0] != '{' || json.Unmarshal(b, &raw) != nil {
		return nil, chainProblem("not a JSON object")
	}
	return raw, nil
}

// field decodes the member k of raw into v, reporting an absent member as
// an error: encoding/json alone matches names case-insensitively and
// leaves absent fields at their zero value.
func field(raw map[string]json.RawMessage, k string, v any) error {
	m, ok := raw[k]
	if !ok {
		return fmt.Errorf("no %q field", k)
	}
	if err := json.Unmarshal(m, v); err != nil {
		return fmt.Errorf("field %q: %v", k, err)
	}
	return nil
}

// signingBody is the canonical form of raw without the named members: what
// a signature over "the entry without its signature" covers.
func signingBody(raw map[string]json.RawMessage, drop ...string) []byte {
	m := make(map[string]json.RawMessage, len(raw))
	for k, v := range raw {
		m[k] = v
	}
	for _, k := range drop {
		delete(m, k)
	}
	// raw came from canonical text, so this cannot fail.
	b, _ := marshalCanonical(m)
	return b
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func decodeKey(s string) (ed25519.PublicKey, *problem) {
	b, err := b64.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, sigProblem("public_key is not a base64 Ed25519 public key")
	}
	return b, nil
}

func decodeSig(s, name string) ([]byte, *problem) {
	b, err := b64.DecodeString(s)
	if err != nil || len(b) != ed25519.SignatureSize {
		return nil, sigProblem("%s is not a base64 Ed25519 signature", name)
	}
	return b, nil
}

// AlgorithmEd25519 is the one signature scheme of the ledger's entries
// (their "algorithm" field; absent on entries written before it existed).
const AlgorithmEd25519 = "ed25519"

// line is one parsed, self-consistent ledger line.
type line struct {
	Entry
	// endorsed is what KeyEndorsement signs; nil when there is none.
	endorsed []byte
}

// parseLine checks one line on its own: canonical JSON, the required
// fields with their types, and its signature. How it links to its
// neighbours is the caller's business.
func parseLine(b []byte) (line, *problem) {
	raw, p := canonicalObject(b)
	if p != nil {
		return line{}, p
	}
	// The signature first: once the line is canonical JSON, any change to
	// what was signed is a signature failure, whichever field it hit.
	var e Entry
	// Before the key is decoded: a key of another scheme would otherwise
	// be reported as a bad Ed25519 key.
	if p := algorithm(raw, &e.Algorithm); p != nil {
		return line{}, p
	}
	if err := field(raw, "public_key", &e.PublicKey); err != nil {
		return line{}, sigProblem("%v", err)
	}
	if err := field(raw, "sig", &e.Sig); err != nil {
		return line{}, sigProblem("%v", err)
	}
	pub, p := decodeKey(e.PublicKey)
	if p != nil {
		return line{}, p
	}
	sig, p := decodeSig(e.Sig, "sig")
	if p != nil {
		return line{}, p
	}
	if !ed25519.Verify(pub, signingBody(raw, "sig"), sig) {
		return line{}, sigProblem("the signature does not verify: the entry was changed after it was signed")
	}
	// What follows only fails for an entry its key holder signed
	// malformed.
	for _, f := range []struct {
		name string
		v    any
	}{
		{"seq", &e.Seq}, {"prev", &e.Prev}, {"time", &e.Time}, {"kind", &e.Kind},
		{"task_id", &e.TaskID}, {"record", &e.Record},
	} {
		if err := field(raw, f.name, f.v); err != nil {
			return line{}, chainProblem("malformed entry: %v", err)
		}
	}
	for k, v := range map[string]*string{"iteration_id": &e.IterationID, "session_id": &e.SessionID} {
		if _, ok := raw[k]; ok {
			if err := field(raw, k, v); err != nil {
				return line{}, chainProblem("malformed entry: %v", err)
			}
		}
	}
	switch {
	case e.Seq < 0:
		return line{}, chainProblem("malformed entry: negative seq %d", e.Seq)
	case !isHash(e.Prev):
		return line{}, chainProblem("malformed entry: prev %q is not a SHA-256 in lower-case hex", e.Prev)
	case e.Kind == "" || e.TaskID == "":
		return line{}, chainProblem("malformed entry: empty kind or task_id")
	case len(e.Record) == 0 || e.Record[0] != '{':
		return line{}, chainProblem("malformed entry: record is not a JSON object")
	}
	if _, err := time.Parse(time.RFC3339Nano, e.Time); err != nil {
		return line{}, chainProblem("malformed entry: time %q is not RFC 3339", e.Time)
	}
	l := line{Entry: e}
	if _, ok := raw["key_endorsement"]; ok {
		if err := field(raw, "key_endorsement", &l.KeyEndorsement); err != nil {
			return line{}, chainProblem("malformed entry: %v", err)
		}
		if _, p := decodeSig(l.KeyEndorsement, "key_endorsement"); p != nil {
			return line{}, p
		}
		l.endorsed = signingBody(raw, "sig", "key_endorsement")
	}
	sum := sha256.Sum256(b)
	l.Hash = hex.EncodeToString(sum[:])
	return l, nil
}

// algorithm reads an entry's optional "algorithm" into a: absent (an
// entry older than the field) is Ed25519, any other scheme is refused.
func algorithm(raw map[string]json.RawMessage, a *string) *problem {
	if _, ok := raw["algorithm"]; !ok {
		return nil
	}
	if err := field(raw, "algorithm", a); err != nil {
		return sigProblem("%v", err)
	}
	if *a != AlgorithmEd25519 {
		return sigProblem("signed with algorithm %q, which this tribunal cannot verify (it knows %q only): a newer tribunal wrote it, or it was forged", *a, AlgorithmEd25519)
	}
	return nil
}

// continues checks the key rule between l and the entry before it, signed
// by prevKey ("" when l is entry 0): the same key, or a new key that the
// previous one endorsed. Without the rule anyone could re-sign a forged
// tail of the ledger with a key of their own.
func (l line) continues(prevKey string) *problem {
	switch {
	case prevKey == "" || l.PublicKey == prevKey:
		if l.endorsed != nil {
			return chainProblem("key_endorsement present although the key did not change")
		}
		return nil
	case l.endorsed == nil:
		return sigProblem("signed by key %s, which the previous entry's key %s never endorsed", l.PublicKey, prevKey)
	}
	pub, p := decodeKey(prevKey)
	if p != nil {
		return p
	}
	sig, _ := b64.DecodeString(l.KeyEndorsement)
	if !ed25519.Verify(pub, l.endorsed, sig) {
		return sigProblem("the key endorsement does not verify against the previous entry's key %s", prevKey)
	}
	return nil
}

// parseHead checks a head file: one canonical JSON object and a newline,
// its signature by the key it names (first, as for entries), then its
// fields.
func parseHead(data []byte) (Head, *problem) {
	b, ok := bytes.CutSuffix(data, []byte("\n"))
	if !ok {
		return Head{}, chainProblem("the head file does not end in a newline")
	}
	raw, p := canonicalObject(b)
	if p != nil {
		p.reason = "head file: " + p.reason
		return Head{}, p
	}
	var h Head
	if err := field(raw, "public_key", &h.PublicKey); err != nil {
		return Head{}, sigProblem("head file: %v", err)
	}
	if err := field(raw, "sig", &h.Sig); err != nil {
		return Head{}, sigProblem("head file: %v", err)
	}
	pub, p := decodeKey(h.PublicKey)
	if p != nil {
		p.reason = "head file: " + p.reason
		return Head{}, p
	}
	sig, p := decodeSig(h.Sig, "the head file's sig")
	if p != nil {
		return Head{}, p
	}
	if !ed25519.Verify(pub, signingBody(raw, "sig"), sig) {
		return Head{}, sigProblem("the head file's signature does not verify: it was changed after it was signed")
	}
	if err := errors.Join(field(raw, "entries", &h.Entries), field(raw, "hash", &h.Hash)); err != nil {
		return Head{}, chainProblem("malformed head file: %v", err)
	}
	if h.Entries < 0 || !isHash(h.Hash) {
		return Head{}, chainProblem("malformed head file: entries %d, hash %q", h.Entries, h.Hash)
	}
	return h, nil
}
