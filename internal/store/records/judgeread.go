package records

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ListRecords returns the judgement records of every session in
// projectDir (stop-<sid>/<task_id>.json), sorted by path. Like
// ListStopFiles it skips anything that is not a regular file or directory
// as named, and a missing project directory has none.
func ListRecords(projectDir string) ([]string, error) {
	entries, err := os.ReadDir(projectDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", projectDir, err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), StopPrefix) {
			continue
		}
		dir := filepath.Join(projectDir, e.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range files {
			id, ok := strings.CutSuffix(f.Name(), JSONExt)
			if ok && f.Type().IsRegular() && ValidID(id) {
				out = append(out, filepath.Join(dir, f.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadRecord reads one judgement record: a verdict (checked exactly like a
// stop file) or a judgement that produced none, with its reason. Its Name
// is its session directory's ("stop-" plus the sanitised session id), so
// markers and short session ids work as for the stop file.
func ReadRecord(path string) (Advisory, error) {
	a := Advisory{Path: path, Name: filepath.Base(filepath.Dir(path))}
	data, err := a.readBounded()
	if err != nil {
		return a, err
	}
	j, err := DecodeJudgement(data)
	if err != nil {
		return a, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	a.DurationMS, a.Rewake, a.LeftOut = j.DurationMS, j.Rewake, j.LeftOut
	if j.Outcome != OutcomeFailed && j.Outcome != OutcomeCancelled {
		a.fill(j.TaskID, j.SessionID, j.Outcome, j.Fingerprint, j.WrittenAt, j.CostUSD, j.Verdict)
		return a, nil
	}
	a.fill(j.TaskID, j.SessionID, j.Outcome, j.Fingerprint, j.WrittenAt, j.CostUSD, nil)
	if a.Error = j.Error; a.Error == "" {
		a.Error = "(no reason recorded)"
	}
	return a, nil
}
