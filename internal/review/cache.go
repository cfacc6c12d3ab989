package review

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// cacheFormat names the key derivation and the entry layout; it changes
// whenever either does, so that no entry of another layout is ever read
// as this one's (v3: entries carry an HMAC).
const cacheFormat = "review-cache-v3"

// CacheKey is the identity of a review's verdict: an unchanged base tree,
// head state, rendered-diff bound and jury (rubric, parameters, panel,
// models, prompts — session's jury fingerprint) asks the same question of
// the same judges, so a stored verdict answers it. The trees and the
// bound fix the diff the judges read, so the key needs no patch: a change
// from Identify, not yet loaded, has its key.
func CacheKey(c *Change, diffBytes int, jury string) string {
	h := sha256.New()
	// The size bounds decide which files a range's judges are shown, so
	// a verdict under one max_file_mb/max_change_mb does not answer under
	// another.
	limits := strconv.FormatInt(c.limits.File(), 10) + "/" + strconv.FormatInt(c.limits.Task(), 10)
	for _, part := range []string{cacheFormat, c.Kind, c.BaseTree, c.HeadKey, strconv.Itoa(diffBytes), limits, jury} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Cache is a directory of stored review verdicts, one file per key, that a
// CI job can keep between runs. The directory is not trusted: a CI cache
// is restored by a prefix that any run on the pull request's ref can
// write, and a local one is a file anyone with the checkout can edit. So
// every entry carries an HMAC-SHA256 under Secret, a key the job holds
// and the reviewed code never sees, and an entry that does not
// authenticate is a miss.
type Cache struct {
	Dir    string
	Secret []byte
}

// maxEntry bounds one stored verdict.
const maxEntry = 32 << 20

// entryHeader starts every entry: "<format> hmac-sha256:<hex>\n", then
// the payload's exact bytes.
var entryHeader = []byte(cacheFormat + " hmac-sha256:")

// ErrNotAuthenticated is wrapped by Get's error for an entry that exists
// but may not decide anything: forged, edited, written under another
// secret, or in an older format.
var ErrNotAuthenticated = errors.New("not authenticated")

// NotAuthenticated is Get's error for such an entry; Reason says why.
type NotAuthenticated struct{ Reason string }

func (e *NotAuthenticated) Error() string { return "not authenticated: " + e.Reason }

// Is makes errors.Is(err, ErrNotAuthenticated) hold.
func (e *NotAuthenticated) Is(target error) bool { return target == ErrNotAuthenticated }

func unauthenticated(format string, args ...any) error {
	return &NotAuthenticated{Reason: fmt.Sprintf(format, args...)}
}

// Path is key's entry file.
func (c Cache) Path(key string) string { return filepath.Join(c.Dir, key+records.JSONExt) }

// mac binds the payload to its key, so that an entry authenticated for
// one review cannot be copied to another's file name.
func (c Cache) mac(key string, payload []byte) []byte {
	m := hmac.New(sha256.New, c.Secret)
	m.Write([]byte(cacheFormat))
	m.Write([]byte{0})
	m.Write([]byte(key))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)
}

// Get reads key's entry into v. It is a hit only for an entry whose HMAC
// verifies under c.Secret: (false, nil) when there is no entry, (false,
// err wrapping ErrNotAuthenticated) when there is one that must not be
// used — never a reason to stop the review, which judges afresh.
func (c Cache) Get(key string, v any) (bool, error) {
	if c.Dir == "" || len(c.Secret) == 0 {
		return false, nil
	}
	data, err := store.ReadRegular(c.Path(key), maxEntry)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, unauthenticated("%v", err)
	}
	payload, err := c.open(key, data)
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return false, unauthenticated("it authenticates but is not a cached review: %v", err)
	}
	return true, nil
}

// open checks an entry's header and HMAC and returns its payload.
func (c Cache) open(key string, data []byte) ([]byte, error) {
	header, payload, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || !bytes.HasPrefix(header, entryHeader) {
		return nil, unauthenticated("no %s header, so an older tribunal or someone else wrote it", cacheFormat)
	}
	got, err := hex.DecodeString(string(header[len(entryHeader):]))
	if err != nil || !hmac.Equal(got, c.mac(key, payload)) {
		return nil, unauthenticated("its HMAC does not verify, so it was edited, forged or written under another secret")
	}
	return payload, nil
}

// Put stores v as key's entry, atomically, with its HMAC.
func (c Cache) Put(key string, v any) error {
	if c.Dir == "" {
		return nil
	}
	if len(c.Secret) == 0 {
		return errors.New("the review cache has no secret to authenticate its entries with: not cached")
	}
	payload, err := store.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the cached review: %w", err)
	}
	data := append(append([]byte{}, entryHeader...), hex.EncodeToString(c.mac(key, payload))...)
	data = append(append(data, '\n'), payload...)
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("create the review cache: %w", err)
	}
	if err := store.WriteFileAtomic(c.Path(key), data, 0o600); err != nil {
		return fmt.Errorf("cache the review in %q: %w", c.Dir, err)
	}
	return nil
}
