package review

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheAuthenticates is the table of what a cached verdict must be to
// decide a review: written by Put under the same secret for the same key,
// byte for byte. Everything else is a miss that says why (issue 30 item 3:
// an entry edited to "accepted" gave a gated pass with no model call).
func TestCacheAuthenticates(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	const key, other = "k1", "k2"
	cases := []struct {
		name string
		// edit changes the stored entry of key (in a cache that holds
		// key's and other's entries); nil leaves it.
		edit   func(t *testing.T, c Cache) []byte
		secret []byte
		hit    bool
		why    string
	}{
		{name: "as written", hit: true},
		{name: "absent", edit: func(t *testing.T, c Cache) []byte { return nil }},
		{name: "payload edited to accepted", edit: func(t *testing.T, c Cache) []byte {
			return bytes.Replace(read(t, c, key), []byte(`"rejected"`), []byte(`"accepted"`), 1)
		}, why: "HMAC does not verify"},
		{name: "payload reformatted", edit: func(t *testing.T, c Cache) []byte {
			return append(read(t, c, key), ' ')
		}, why: "HMAC does not verify"},
		{name: "old format, no header", edit: func(t *testing.T, c Cache) []byte {
			return []byte(`{"outcome":"accepted"}`)
		}, why: "no review-cache-v3 header"},
		{name: "forged header", edit: func(t *testing.T, c Cache) []byte {
			_, payload, _ := bytes.Cut(read(t, c, key), []byte{'\n'})
			return append([]byte("review-cache-v3 hmac-sha256:"+strings.Repeat("00", 32)+"\n"), payload...)
		}, why: "HMAC does not verify"},
		{name: "another key's entry copied", edit: func(t *testing.T, c Cache) []byte {
			return read(t, c, other)
		}, why: "HMAC does not verify"},
		{name: "written under another secret", secret: []byte("another secret, just as long..."), why: "HMAC does not verify"},
		{name: "not a regular file", edit: func(t *testing.T, c Cache) []byte {
			os.Remove(c.Path(key))
			if err := os.Mkdir(c.Path(key), 0o700); err != nil {
				t.Fatal(err)
			}
			return nil
		}, why: "not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := Cache{Dir: filepath.Join(t.TempDir(), "cache"), Secret: secret}
			if tc.secret != nil {
				w.Secret = tc.secret
			}
			if err := w.Put(key, map[string]string{"outcome": "rejected"}); err != nil {
				t.Fatal(err)
			}
			if err := w.Put(other, map[string]string{"outcome": "accepted"}); err != nil {
				t.Fatal(err)
			}
			r := Cache{Dir: w.Dir, Secret: secret}
			if tc.edit != nil {
				data := tc.edit(t, r)
				if data != nil {
					os.WriteFile(r.Path(key), data, 0o600)
				} else if tc.why == "" {
					os.Remove(r.Path(key))
				}
			}
			var got map[string]string
			hit, err := r.Get(key, &got)
			if hit != tc.hit {
				t.Fatalf("hit = %v (%v), want %v", hit, err, tc.hit)
			}
			if tc.hit && got["outcome"] != "rejected" {
				t.Errorf("got %v", got)
			}
			if tc.why == "" && err != nil {
				t.Errorf("a plain miss or hit says %v", err)
			}
			if tc.why != "" && (!errors.Is(err, ErrNotAuthenticated) || !strings.Contains(err.Error(), tc.why)) {
				t.Errorf("err = %v, want ErrNotAuthenticated saying %q", err, tc.why)
			}
		})
	}
}

func read(t *testing.T, c Cache, key string) []byte {
	t.Helper()
	data, err := os.ReadFile(c.Path(key))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestCacheWithoutSecret(t *testing.T) {
	c := Cache{Dir: t.TempDir()}
	if err := c.Put("k", 1); err == nil {
		t.Error("Put without a secret succeeded")
	}
	var v int
	if hit, err := c.Get("k", &v); hit || err != nil {
		t.Errorf("Get without a secret = %v, %v", hit, err)
	}
}

func TestCacheSecretFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	a, err := LoadOrCreateCacheSecret(dir)
	if err != nil || len(a) != 32 {
		t.Fatalf("first use: %d bytes, %v", len(a), err)
	}
	fi, err := os.Stat(filepath.Join(dir, CacheSecretFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	b, err := LoadOrCreateCacheSecret(dir)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("second use gave another key (%v)", err)
	}
	os.Chmod(filepath.Join(dir, CacheSecretFile), 0o644)
	if _, err := LoadOrCreateCacheSecret(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key open to others: %v", err)
	}
}
