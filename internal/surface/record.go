package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Outcomes of a judgement that produced no verdict (a record only).
const (
	OutcomeFailed    = "failed"
	OutcomeCancelled = "cancelled"
)

// recordFile mirrors the fields of a judgement record (the Stop hook's
// per-session history, store.Project.VerdictsDir) beyond the stop file's.
type recordFile struct {
	TaskID     *string `json:"task_id"`
	SessionID  string  `json:"session_id"`
	Outcome    string  `json:"outcome"`
	WrittenAt  string  `json:"written_at"`
	DurationMS *int    `json:"duration_ms"`
	Error      string  `json:"error"`
	Rewake     bool    `json:"rewake"`
}

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
		if !e.IsDir() || !strings.HasPrefix(e.Name(), stopPrefix) {
			continue
		}
		dir := filepath.Join(projectDir, e.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range files {
			id, ok := strings.CutSuffix(f.Name(), stopSuffix)
			if ok && f.Type().IsRegular() && ValidTaskID(id) {
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
	var rf recordFile
	if err := json.Unmarshal(bytes.TrimSpace(data), &rf); err != nil {
		return a, fmt.Errorf("%w: cannot decode it: %w", ErrCorrupt, err)
	}
	a.DurationMS, a.Rewake = rf.DurationMS, rf.Rewake
	switch rf.Outcome {
	case OutcomeFailed, OutcomeCancelled:
		if rf.TaskID == nil || !ValidTaskID(*rf.TaskID) {
			return a, fmt.Errorf("%w: task_id is missing or not a ULID", ErrCorrupt)
		}
		a.TaskID, a.SessionID, a.Outcome, a.Error = *rf.TaskID, rf.SessionID, rf.Outcome, rf.Error
		if a.Error == "" {
			a.Error = "(no reason recorded)"
		}
		var withCost struct {
			CostUSD     *float64 `json:"cost_usd"`
			Fingerprint string   `json:"fingerprint"`
		}
		json.Unmarshal(data, &withCost)
		a.CostUSD, a.Fingerprint = withCost.CostUSD, withCost.Fingerprint
		if t, err := time.Parse(time.RFC3339, rf.WrittenAt); err == nil {
			a.WrittenAt = t
		} else {
			a.WrittenAt, a.TimeFromMtime = a.ModTime, true
		}
		return a, nil
	}
	if err := a.parse(data); err != nil {
		return a, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return a, nil
}

// IsRecordPath reports whether path names a judgement record rather than a
// stop file.
func IsRecordPath(path string) bool {
	return strings.HasPrefix(filepath.Base(filepath.Dir(path)), stopPrefix)
}
