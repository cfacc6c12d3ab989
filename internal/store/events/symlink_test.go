package events

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// A symbolic link planted in place of a file Emit appends to or writes in
// place is never written through: the file it points at stays as it was
// and Emit fails naming the link.
func TestEmitRefusesSymlinks(t *testing.T) {
	for _, name := range []string{"log", lockFile, sequenceTemp} {
		t.Run(name, func(t *testing.T) {
			e := newTestEmitter(t)
			if err := e.Emit(SessionStart{TaskID: "t"}); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(t.TempDir(), "victim")
			testkit.WriteFile(t, victim, "precious\n")
			link := e.LogPath
			if name != "log" {
				link = filepath.Join(e.Dir, name)
			}
			os.Remove(link)
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			err := e.Emit(SessionStart{TaskID: "t"})
			if !errors.Is(err, store.ErrSymlink) {
				t.Errorf("Emit through a link at %s: %v, want ErrSymlink", name, err)
			}
			if got := readFile(t, victim); got != "precious\n" {
				t.Errorf("the link's target was written: %q", got)
			}
		})
	}
}
