package surface

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// MinRetention is how long a stop file is kept after its last write; the
// effective retention is never shorter than the configured max age, so a
// verdict is never deleted while it could still be surfaced.
const MinRetention = 30 * 24 * time.Hour

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
	dir := filepath.Join(projectDir, records.MarkerDir)
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
	recs, err := records.ListRecords(projectDir)
	if err != nil {
		return nil
	}
	var problems []string
	dirs := map[string]bool{}
	for _, p := range recs {
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
