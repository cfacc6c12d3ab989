package session

import (
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
)

func storeWrite(dir, name string, v any) error {
	return store.WriteJSON(filepath.Join(dir, name), v)
}

// storeWriteText writes text verbatim (actor.md, summary.md): these are
// for people and must not be JSON-quoted.
func storeWriteText(dir, name, text string) error {
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, []byte(text), 0o600)
}
