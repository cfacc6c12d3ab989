package tune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Record is a run as stored in tune/<id>/tune.json: the result with its
// identity and, for a shipped run, the rubric and its diff.
type Record struct {
	ID       string `json:"id"`
	Time     string `json:"time"`
	RubricID string `json:"rubric_id"`
	// Source names the cases (a file, or "history").
	Source string `json:"source"`
	*Result
	Shipped json.RawMessage `json:"shipped_rubric,omitempty"`
	Diff    string          `json:"shipped_diff,omitempty"`
}

// NewRecord is r's record; a shipped run carries its rubric and diff.
func NewRecord(id, at, rubricID, source string, r *Result) Record {
	rec := Record{ID: id, Time: at, RubricID: rubricID, Source: source, Result: r}
	if r.Winner != nil {
		rec.Shipped = r.Winner.Surface.Raw
		rec.Diff = Diff(r.Base, r.Winner.Surface)
	}
	return rec
}

// Save writes the record under the project's tune directory.
func (rec Record) Save(projectDir string) (string, error) {
	dir := records.TunePath(projectDir, rec.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("record the tune run: %w", err)
	}
	if err := store.WriteJSON(filepath.Join(dir, records.TuneResultFile), rec); err != nil {
		return "", fmt.Errorf("record the tune run: %w", err)
	}
	if rec.Shipped != nil {
		if err := WriteRubric(filepath.Join(dir, records.TuneRubricFile), Surface{Raw: rec.Shipped}, rec.Diff); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// WriteRubric writes a shipped surface as a rubric file (path) and its
// diff against the current rubric (path + ".diff"; under the run's
// directory, rubric.diff).
func WriteRubric(path string, s Surface, diff string) error {
	if err := os.WriteFile(path, []byte(s.Pretty()), 0o600); err != nil {
		return fmt.Errorf("write the rubric: %w", err)
	}
	dpath := path + ".diff"
	if filepath.Base(path) == records.TuneRubricFile {
		dpath = filepath.Join(filepath.Dir(path), records.TuneDiffFile)
	}
	if err := os.WriteFile(dpath, []byte(diff), 0o600); err != nil {
		return fmt.Errorf("write the rubric's diff: %w", err)
	}
	return nil
}

// ReadRecord reads a run's record.
func ReadRecord(projectDir, id string) (Record, error) {
	var rec Record
	data, err := os.ReadFile(filepath.Join(records.TunePath(projectDir, id), records.TuneResultFile))
	if err != nil {
		return rec, fmt.Errorf("read tune run %s: %w", id, err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("read tune run %s: %w", id, err)
	}
	return rec, nil
}
