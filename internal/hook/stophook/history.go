package stophook

import (
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
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

// evidence keeps the diff the judge was shown beside its judgement record
// (records.JudgementDiffPath): bounded as in the prompt, the untracked
// files that look like secrets already left out, configured credentials
// redacted. A turn whose diff was empty keeps no file.
func (r *recorder) evidence(taskID, diff string) error {
	if diff == "" {
		return nil
	}
	path := records.JudgementDiffPath(r.j.ProjectDir, r.j.SessionID, taskID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, []byte(r.d.Redact.String(diff)), 0o600)
}
