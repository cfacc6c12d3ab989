// Package history reads a project's recorded tasks and advisory verdicts
// back from the on-disk layout (spec §7.6, spec §9.4) for the log, show and
// replay commands.
package history

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

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

// taskIDs lists the task directories of a project, newest first: the
// subdirectories whose name is a ULID. Other entries (stop files, runs/,
// surfaced/, the project manifest) are not tasks.
func taskIDs(projectDir string) ([]string, error) {
	entries, err := os.ReadDir(projectDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, records.FileProblem(projectDir, err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && records.ValidID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	return ids, nil
}

// ulidTime is the creation time encoded in a task id.
func ulidTime(id string) time.Time {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return time.Time{}
	}
	return ulid.Time(u.Time()).UTC()
}

// iterationDirs lists a task's iteration directories in order. Their names
// carry ULIDs, so name order is creation order (spec §7.6).
func iterationDirs(taskDir string) ([]string, error) {
	entries, err := os.ReadDir(taskDir)
	if err != nil {
		return nil, records.FileProblem(taskDir, err)
	}
	var dirs []string
	for _, e := range entries {
		id, ok := strings.CutPrefix(e.Name(), records.IterationPrefix)
		if ok && e.IsDir() && records.ValidID(id) {
			dirs = append(dirs, filepath.Join(taskDir, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs, nil
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
	ids, err := taskIDs(projectDir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		if !ulidTime(id).Before(t) {
			out = append(out, id)
		}
	}
	return out, nil
}
