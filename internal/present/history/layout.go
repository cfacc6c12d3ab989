// Package history reads a project's recorded tasks and advisory verdicts
// back from the on-disk layout (spec §7.6, spec §9.4) for the log, show and
// replay commands.
package history

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Reasons a file is a Problem.
var (
	ErrMissing = records.ErrMissing
	ErrNotJSON = records.ErrNotJSON
)

// asProblem turns an error from the readers into a Problem.
func asProblem(err error) records.Problem {
	var p *records.Problem
	if errors.As(err, &p) {
		return *p
	}
	return records.Problem{Err: err}
}

// loadTask reads a task's manifest and completion record. Problems are
// returned, never fatal: a task with a corrupt manifest still lists.
func loadTask(projectDir, id string) (*records.Manifest, *records.Complete, []records.Problem) {
	dir := filepath.Join(projectDir, id)
	var problems []records.Problem
	var m *records.Manifest
	var mf records.Manifest
	if err := records.ReadJSON(filepath.Join(dir, records.ManifestFile), &mf); err != nil {
		problems = append(problems, asProblem(err))
	} else {
		m = &mf
	}
	var c *records.Complete
	var cf records.Complete
	path := filepath.Join(dir, records.SessionCompleteFile)
	if err := records.ReadJSON(path, &cf); err != nil {
		// A missing file is the normal state of a task still running;
		// the caller consults the events log. Anything else is reported.
		if p := asProblem(err); !errors.Is(p.Err, ErrMissing) {
			problems = append(problems, p)
		}
	} else {
		c = &cf
	}
	return m, c, problems
}

// TasksSince lists the project's task ids created at or after t, newest
// first (a task id is a ULID: it carries its creation time).
func TasksSince(projectDir string, t time.Time) ([]string, error) {
	ids, err := records.TaskIDs(projectDir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		if !records.TaskTime(id).Before(t) {
			out = append(out, id)
		}
	}
	return out, nil
}
