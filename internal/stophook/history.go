package stophook

import (
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// history writes a as a new record of the session's judgements directory
// (records.JudgementsDir), named by its task id and never overwritten:
// `tribunal-session log` lists each.
func (r *recorder) history(a records.Judgement) error {
	a.SessionID, a.Mode = r.j.SessionID, records.Mode
	a.WrittenAt = r.now().UTC().Format(time.RFC3339)
	dir := records.JudgementsDir(r.j.ProjectDir, r.j.SessionID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return store.WriteJSONRedacted(filepath.Join(dir, a.TaskID+records.JSONExt), a, r.d.Redact)
}
