package calibrate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// cache keeps each decided judgement under
// $ONLOOKER_DIR/tribunal/calibration/<key>.json, so that an interrupted or
// repeated run does not pay twice for the same question. The key covers
// the judge configuration and prompts (the judge's fingerprint) and the
// whole case content; changing a model, the rubric, a threshold, a prompt
// or the case asks anew. Failed judgements are never cached: the next run
// retries them.
type cache struct{ dir string }

func newCache(onlookerDir string) cache {
	return cache{dir: filepath.Join(onlookerDir, "tribunal", "calibration")}
}

// key derives the cache key of judging c (with diff, which differs from
// c.Diff under --swap) by a judge with fingerprint fp.
func cacheKey(fp string, c Case, diff string) string {
	h := sha256.New()
	b, _ := json.Marshal(struct {
		Version     int
		Fingerprint string
		Task, Diff  string
		Files       map[string]string
	}{1, fp, c.Task, diff, c.Files})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

type cacheEntry struct {
	CaseID    string    `json:"case_id"`
	Judgement Judgement `json:"judgement"`
}

func (c cache) path(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

func (c cache) get(key string) (Judgement, bool) {
	data, ok := store.ReadOptional(c.path(key), 4<<20, func(string) {})
	if !ok {
		return Judgement{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || (e.Judgement.Decision != "pass" && e.Judgement.Decision != "fail") {
		return Judgement{}, false
	}
	return e.Judgement, true
}

func (c cache) put(key, caseID string, j Judgement) error {
	return store.WriteJSON(c.path(key), cacheEntry{CaseID: caseID, Judgement: j})
}
