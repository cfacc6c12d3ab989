package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// familyNoteOnce drops the one-family panel note from a summary the
// second time: it is advice about the user's settings, news once, noise
// on every task after. The first showing is remembered in the store; the
// report's panel_family_note (for programs) keeps it every time. A store
// that cannot be written means the note is shown again, never lost.
func (c *cli) familyNoteOnce(rep *session.Report) {
	if rep == nil || rep.FamilyNote == "" {
		return
	}
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	path := filepath.Join(store.NoticesDir(onlooker), records.NoticeFile(rep.FamilyNote))
	if _, err := os.Stat(path); err == nil {
		rep.FamilyNote = ""
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	store.WriteJSON(path, records.Notice{Text: rep.FamilyNote, ShownAt: time.Now().UTC().Format(time.RFC3339)})
}
