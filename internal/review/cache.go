package review

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// CacheKey is the identity of a review's verdict: an unchanged base tree,
// head state, rendered-diff bound and jury (rubric, parameters, panel,
// models, prompts — session's jury fingerprint) asks the same question of
// the same judges, so a stored verdict answers it. The trees and the
// bound fix the diff the judges read, so the key needs no patch: a change
// from Identify, not yet loaded, has its key (v2: the jury's fingerprint
// no longer covers the diff).
func CacheKey(c *Change, diffBytes int, jury string) string {
	h := sha256.New()
	for _, part := range []string{"review-cache-v2", c.Kind, c.BaseTree, c.HeadKey, strconv.Itoa(diffBytes), jury} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Cache is a directory of stored review verdicts, one file per key, that a
// CI job can keep between runs.
type Cache struct{ Dir string }

// maxEntry bounds one stored verdict.
const maxEntry = 32 << 20

func (c Cache) path(key string) string { return filepath.Join(c.Dir, key+records.JSONExt) }

// Get reads key's entry into v; false when there is none or it cannot be
// read (a damaged entry is a miss, never an error: the review runs).
func (c Cache) Get(key string, v any) bool {
	if c.Dir == "" {
		return false
	}
	data, err := store.ReadRegular(c.path(key), maxEntry)
	return err == nil && json.Unmarshal(data, v) == nil
}

// Put stores v as key's entry, atomically.
func (c Cache) Put(key string, v any) error {
	if c.Dir == "" {
		return nil
	}
	data, err := store.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the cached review: %w", err)
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("create the review cache: %w", err)
	}
	if err := store.WriteFileAtomic(c.path(key), data, 0o600); err != nil {
		return fmt.Errorf("cache the review in %q: %w", c.Dir, err)
	}
	return nil
}
