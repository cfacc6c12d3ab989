package session

import (
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/store"
)

func storeWrite(dir, name string, v any, red *redact.Redactor) error {
	return store.WriteJSONRedacted(filepath.Join(dir, name), v, red)
}

// storeWriteText writes text verbatim (actor.md, summary.md): these are
// for people and must not be JSON-quoted. red's secrets are replaced.
func storeWriteText(dir, name, text string, red *redact.Redactor) error {
	text = red.String(text)
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, []byte(text), 0o600)
}
