package surface

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// MarkerDir is the directory, inside a project directory, that holds one
// marker file per surfaced advisory verdict.
const MarkerDir = "surfaced"

// MinRetention is how long a stop file is kept after its last write; the
// effective retention is never shorter than the configured max age, so a
// verdict is never deleted while it could still be surfaced.
const MinRetention = 30 * 24 * time.Hour

// MarkerPath names the marker of one advisory verdict:
// <project>/surfaced/<stop-file base name>.<task_id>. The task id is part of
// the name because a session's stop file is overwritten on every judged
// turn: each new verdict is a new thing to surface.
func MarkerPath(projectDir string, a Advisory) string {
	return filepath.Join(projectDir, MarkerDir, a.Name+"."+a.TaskID)
}

// Mark is what a marker records about the surfacing.
type Mark struct {
	SurfacedAt time.Time `json:"surfaced_at"`
	// SessionID is the session whose start surfaced the verdict.
	SessionID string `json:"session_id"`
}

// claim marks a as surfaced by creating its marker exclusively. It reports
// false, with no error, when the marker already exists: another session
// start (possibly a concurrent one) has surfaced it. O_EXCL makes the claim
// atomic, so of any number of concurrent session starts exactly one wins.
func claim(projectDir string, a Advisory, m Mark) (bool, error) {
	dir := filepath.Join(projectDir, MarkerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("create %q: %w", dir, err)
	}
	path := MarkerPath(projectDir, a)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("create marker %q: %w", path, err)
	}
	// The content is informational (who surfaced it and when); the claim is
	// the file's existence, so a failed write does not undo it.
	data, _ := json.Marshal(m)
	f.Write(append(data, '\n'))
	f.Close()
	return true, nil
}

// ReadMark reports whether a has been surfaced and, when the marker's
// content is readable, by which session and when.
func ReadMark(projectDir string, a Advisory) (Mark, bool) {
	f, err := store.OpenRegular(MarkerPath(projectDir, a))
	if err != nil {
		return Mark{}, false
	}
	defer f.Close()
	var m Mark
	data, _ := io.ReadAll(io.LimitReader(f, 4096))
	json.Unmarshal(data, &m)
	return m, true
}

// retain deletes, best-effort, the stop files last written more than
// retention ago (except the current session's own, whose fingerprint still
// saves a model call) and the markers whose stop file is gone. It returns
// one line per failure.
func retain(projectDir string, stops []string, own string, retention time.Duration, now time.Time) []string {
	var problems []string
	for _, p := range stops {
		if filepath.Base(p) == own {
			continue
		}
		// Stat again just before deleting: the Stop hook of a session that
		// came back after a month may have rewritten the file since it was
		// listed.
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) <= retention {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("cannot delete old advisory verdict %q: %v", p, err))
		}
	}
	problems = append(problems, retainRecords(projectDir, strings.TrimSuffix(own, records.JSONExt), retention, now)...)
	dir := filepath.Join(projectDir, MarkerDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return problems
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndexByte(name, '.')
		if i <= 0 || !records.IsStopFileName(name[:i]+records.JSONExt) {
			continue
		}
		stop := filepath.Join(projectDir, name[:i]+records.JSONExt)
		if _, err := os.Lstat(stop); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("cannot delete marker %q: %v", filepath.Join(dir, name), err))
		}
	}
	return problems
}

// retainRecords applies the same retention to the judgement records of
// every session but the current one, and removes a session's directory
// once it is empty.
func retainRecords(projectDir, ownDir string, retention time.Duration, now time.Time) []string {
	records, err := ListRecords(projectDir)
	if err != nil {
		return nil
	}
	var problems []string
	dirs := map[string]bool{}
	for _, p := range records {
		dir := filepath.Dir(p)
		if filepath.Base(dir) == ownDir {
			continue
		}
		dirs[dir] = true
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) <= retention {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("cannot delete old judgement record %q: %v", p, err))
		}
	}
	for dir := range dirs {
		os.Remove(dir) // only succeeds when empty
	}
	return problems
}
