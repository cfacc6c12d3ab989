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

// cacheKey derives the cache key of judging c by a judge whose
// fingerprint (configuration and the prompt as built, swapped or not) is
// fp; the case's files, which shape the judges' working directory but not
// the prompt, are keyed here.
func cacheKey(fp string, c Case) string {
	h := sha256.New()
	b, _ := json.Marshal(struct {
		Version     int
		Fingerprint string
		Task, Diff  string
		Files       map[string]string
	}{2, fp, c.Task, c.Diff, c.Files})
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
