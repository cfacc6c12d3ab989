package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// pkcs8Prefix is the fixed DER of an Ed25519 PKCS #8 private key (RFC
// 8410) up to its 32-byte seed. Writing the standard form keeps the key
// readable by openssl; building it by hand keeps crypto/x509 out of the
// Stop hook binary.
var pkcs8Prefix = []byte{0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20}

// maxKeyFile caps how much of a key file is read; a PEM key is ~120 bytes.
const maxKeyFile = 4096

// LocalKey is one signing key found in the key directory.
type LocalKey struct {
	// PublicKey is the standard base64 of the public key, as entries carry it.
	PublicKey string
	// Path is the key file.
	Path string
	// Current is true for the key new entries are signed with.
	Current bool
}

// PublicKeyString is the form a public key takes in entries and heads.
func PublicKeyString(k ed25519.PublicKey) string { return b64.EncodeToString(k) }

func encodeKey(k ed25519.PrivateKey) []byte {
	der := append(append([]byte{}, pkcs8Prefix...), k.Seed()...)
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// readKey loads a key file, refusing one that group or others can read:
// whoever can read the key can forge the ledger.
func readKey(path string) (ed25519.PrivateKey, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat key file %q: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("key file %q is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("key file %q has mode %04o, open to group or others; run: chmod 600 %q", path, perm, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile))
	if err != nil {
		return nil, fmt.Errorf("read key file %q: %w", path, err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" ||
		len(block.Bytes) != len(pkcs8Prefix)+ed25519.SeedSize || !bytes.HasPrefix(block.Bytes, pkcs8Prefix) {
		return nil, fmt.Errorf("key file %q is not a PEM PKCS #8 Ed25519 private key", path)
	}
	return ed25519.NewKeyFromSeed(block.Bytes[len(pkcs8Prefix):]), nil
}

// writeNewKey generates a key and writes it complete to a temporary file
// in dir, returning that file's name: the callers then link or rename it
// into place, so no reader ever sees a half-written key.
func writeNewKey(dir string) (ed25519.PrivateKey, string, error) {
	// The system's secure source, not an injectable reader: a signing key
	// must never come from anything else.
	_, k, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, "", fmt.Errorf("generate key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".new-key-*")
	if err != nil {
		return nil, "", fmt.Errorf("create key file in %q: %w", dir, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(encodeKey(k))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(name)
		return nil, "", fmt.Errorf("write key file %q: %w", name, err)
	}
	// CreateTemp makes the file 0600 already.
	return k, name, nil
}

// LoadOrCreateKey returns the signing key in dir (<ONLOOKER_DIR>/keys),
// creating dir (0700) and the key (0600) on first use. Concurrent first
// uses agree on one key: each writes a candidate and links it into place,
// which fails for all but the first.
func LoadOrCreateKey(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, KeyFileName)
	k, err := readKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create key directory %q: %w", dir, err)
	}
	k, tmp, err := writeNewKey(dir)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(path)
		}
		return nil, fmt.Errorf("install key file %q: %w", path, err)
	}
	syncDir(dir)
	return k, nil
}

// CreateKeyFile writes a new signing key to path, 0600, in the key files'
// format (PEM PKCS #8 Ed25519), and returns it. It never replaces a file:
// a path that exists, whatever it is, is an error wrapping fs.ErrExist, so
// a typo cannot destroy a key someone relies on. The key is written whole
// to a temporary file beside path and linked into place.
func CreateKeyFile(path string) (ed25519.PrivateKey, error) {
	dir := filepath.Dir(path)
	k, tmp, err := writeNewKey(dir)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%q already exists; a key is never overwritten: %w", path, fs.ErrExist)
		}
		return nil, fmt.Errorf("write key file %q: %w", path, err)
	}
	syncDir(dir)
	return k, nil
}

// ReadKeyFile loads a key file keygen --out wrote (PEM PKCS #8 Ed25519),
// refusing one that group or others can read, as the ledger's own key.
func ReadKeyFile(path string) (ed25519.PrivateKey, error) { return readKey(path) }

// Rotate replaces the signing key in dir with a new one and keeps the old
// one as tribunal-ledger.key.<UTC time>.old: entries it signed still
// verify by the public key they carry, and the next append to each ledger
// needs it to endorse the new key. oldPath is "" when there was no key.
func Rotate(dir string, now time.Time) (key ed25519.PrivateKey, oldPath string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("create key directory %q: %w", dir, err)
	}
	// Two rotations at once could otherwise each keep the same old key
	// and lose the key the other installed.
	unlock, err := lockFile(filepath.Join(dir, "."+KeyFileName+".lock"), true, lockWait)
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	path := filepath.Join(dir, KeyFileName)
	if _, err := readKey(path); err == nil {
		oldPath = filepath.Join(dir, KeyFileName+"."+now.UTC().Format("20060102T150405.000000000Z")+".old")
		// A link, not a rename: the current key stays in place until the
		// new one replaces it, so a concurrent append never finds no key
		// and creates a third one.
		if err := os.Link(path, oldPath); err != nil {
			return nil, "", fmt.Errorf("keep the old key as %q: %w", oldPath, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	k, tmp, err := writeNewKey(dir)
	if err != nil {
		return nil, "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, "", fmt.Errorf("install key file %q: %w", path, err)
	}
	syncDir(dir)
	return k, oldPath, nil
}

// Keys lists the keys in dir, the current one first, then the rotated ones
// oldest first. A missing dir has no keys; an unreadable key is an error.
func Keys(dir string) ([]LocalKey, error) {
	var out []LocalKey
	cur := filepath.Join(dir, KeyFileName)
	k, err := readKey(cur)
	switch {
	case err == nil:
		out = append(out, LocalKey{PublicKey: PublicKeyString(k.Public().(ed25519.PublicKey)), Path: cur, Current: true})
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	old, err := filepath.Glob(filepath.Join(dir, KeyFileName+".*.old"))
	if err != nil {
		return nil, err
	}
	// The time stamp in the name sorts chronologically.
	sort.Strings(old)
	for _, p := range old {
		k, err := readKey(p)
		if err != nil {
			return nil, err
		}
		out = append(out, LocalKey{PublicKey: PublicKeyString(k.Public().(ed25519.PublicKey)), Path: p})
	}
	return out, nil
}

// findKey returns the private key in dir whose public key is pub.
func findKey(dir, pub string) (ed25519.PrivateKey, error) {
	keys, err := Keys(dir)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if k.PublicKey == pub {
			return readKey(k.Path)
		}
	}
	return nil, fmt.Errorf("no key in %q has public key %s", dir, pub)
}

// syncDir makes a rename or link in dir durable. Failing to open or sync a
// directory (some filesystems refuse) is not worth failing the write for.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
