package review

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// CacheSecretFile is the per-user review-cache key in tribunal's private
// key directory (the ledger's, outside any repository): 32 random bytes
// in hex, created 0600 on first use.
const CacheSecretFile = "review-cache.key"

// MinCacheSecret is the shortest secret a cache may be keyed with: a
// short one could be guessed, and then entries forged.
const MinCacheSecret = 16

// LoadOrCreateCacheSecret returns the review-cache key in keyDir,
// creating keyDir (0700) and the key (0600) on first use. A key that
// group or others can read is refused, as the ledger's is: whoever reads
// it can forge cached verdicts. Concurrent first uses agree on one key:
// each writes a candidate and links it into place, which fails for all
// but the first.
func LoadOrCreateCacheSecret(keyDir string) ([]byte, error) {
	path := filepath.Join(keyDir, CacheSecretFile)
	k, err := readCacheSecret(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(keyDir, 0o700); err != nil {
		return nil, fmt.Errorf("create key directory %q: %w", keyDir, err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("generate the review-cache key: %w", err)
	}
	tmp, err := os.CreateTemp(keyDir, ".new-cache-key-*") // 0600
	if err != nil {
		return nil, fmt.Errorf("create the review-cache key in %q: %w", keyDir, err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(secret) + "\n")
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return nil, fmt.Errorf("write the review-cache key %q: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readCacheSecret(path)
		}
		return nil, fmt.Errorf("install the review-cache key %q: %w", path, err)
	}
	return secret, nil
}

func readCacheSecret(path string) ([]byte, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat the review-cache key %q: %w", path, err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("the review-cache key %q has mode %04o, open to group or others; run: chmod 600 %q", path, perm, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, 256))
	if err != nil {
		return nil, fmt.Errorf("read the review-cache key %q: %w", path, err)
	}
	secret, err := hex.DecodeString(string(trimNewline(data)))
	if err != nil || len(secret) < MinCacheSecret {
		return nil, fmt.Errorf("the review-cache key %q is not a hex key of at least %d bytes; delete it and a new one is made", path, MinCacheSecret)
	}
	return secret, nil
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
