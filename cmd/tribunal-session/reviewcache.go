package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// cacheSecretEnv names the review cache's secret in a CI job (the
// Action's cache-secret input). It is the job's, never the reviewed
// code's: children do not inherit it.
const cacheSecretEnv = "TRIBUNAL_CACHE_SECRET"

// reviewCache is where review keeps verdicts (--cache-dir, else the
// project's store; none with --no-cache) and the secret that
// authenticates them: $TRIBUNAL_CACHE_SECRET when set, else the user's
// own key beside the ledger's. false after an error the user must fix
// (a secret too short to be one).
func (c *cli) reviewCache(f reviewFlags, projectDir string) (review.Cache, bool) {
	cache := review.Cache{Dir: f.cacheDir}
	if cache.Dir == "" {
		cache.Dir = filepath.Join(projectDir, records.ReviewCacheDir)
	}
	if f.noCache {
		return review.Cache{}, true
	}
	if s := c.getenv(cacheSecretEnv); s != "" {
		if len(s) < review.MinCacheSecret {
			c.errorf("%s is %d bytes; the review cache needs a secret of at least %d", cacheSecretEnv, len(s), review.MinCacheSecret)
			c.hint("make one with: openssl rand -hex 32 (and keep it where the reviewed code cannot read it), or unset it to use your own key")
			return review.Cache{}, false
		}
		cache.Secret = []byte(s)
		return cache, true
	}
	secret, err := review.LoadOrCreateCacheSecret(c.keyDir())
	if err != nil {
		c.warning(fmt.Sprintf("the review cache is off: %v", err))
		return review.Cache{}, true
	}
	cache.Secret = secret
	return cache, true
}

// cachedVerdict is the verdict cached for key, when one authenticates;
// one that does not is said in one line and judged afresh (then
// overwritten).
func (c *cli) cachedVerdict(cache review.Cache, key string) (cachedReview, bool) {
	var entry cachedReview
	hit, err := cache.Get(key, &entry)
	var na *review.NotAuthenticated
	if errors.As(err, &na) {
		c.progress(fmt.Sprintf("review: the cached verdict %s is not authenticated (%s); judging afresh", cache.Path(key), na.Reason))
	}
	return entry, hit
}
