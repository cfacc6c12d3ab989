// Package history reads a project's recorded tasks and advisory verdicts back from the on-disk layout (spec §7.6, spec §9.4) for the log, show and replay commands.
package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// maxArtifact caps how much of one artifact is read. Verdicts and
// manifests are kilobytes; a file this large was not written by tribunal.
const maxArtifact = 16 << 20

// Problem is a file that is missing, unreadable or not what tribunal writes.
// The commands print one line per problem and show everything else.
type Problem struct {
	Path string
	Err  error
}

// Error names the file first, quoted, then what is wrong with it.
func (p Problem) Error() string { return fmt.Sprintf("%q: %v", p.Path, p.Err) }

// Reasons a file is a Problem.
var (
	ErrMissing = errors.New("missing")
	ErrNotJSON = errors.New("not valid JSON")
)

// readJSON reads path into v. Every failure is a *Problem naming the file.
func readJSON(path string, v any) error {
	data, err := readFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Problem{Path: path, Err: fmt.Errorf("unexpected content: %w", err)}
	}
	return nil
}

// readRaw reads a file that must hold one JSON value and returns it as is.
func readRaw(path string) (json.RawMessage, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(data)), nil
}

func readFile(path string) ([]byte, error) {
	f, err := store.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &Problem{Path: path, Err: ErrMissing}
	}
	if err != nil {
		return nil, &Problem{Path: path, Err: unwrapPath(err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxArtifact+1))
	if err != nil {
		return nil, &Problem{Path: path, Err: unwrapPath(err)}
	}
	if len(data) > maxArtifact {
		return nil, &Problem{Path: path, Err: fmt.Errorf("larger than %d bytes", maxArtifact)}
	}
	if err := nesting.JSON(data); err != nil {
		return nil, &Problem{Path: path, Err: err}
	}
	if !json.Valid(data) {
		return nil, &Problem{Path: path, Err: ErrNotJSON}
	}
	return data, nil
}

// unwrapPath drops the *PathError wrapper: the Problem names the path once.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// asProblem turns an error from the readers into a Problem.
func asProblem(err error) Problem {
	var p *Problem
	if errors.As(err, &p) {
		return *p
	}
	return Problem{Err: err}
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
		return nil, &Problem{Path: projectDir, Err: unwrapPath(err)}
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
		return nil, &Problem{Path: taskDir, Err: unwrapPath(err)}
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
func loadTask(projectDir, id string) (*records.Manifest, *records.Complete, []Problem) {
	dir := filepath.Join(projectDir, id)
	var problems []Problem
	var m *records.Manifest
	var mf records.Manifest
	if err := readJSON(filepath.Join(dir, records.ManifestFile), &mf); err != nil {
		problems = append(problems, asProblem(err))
	} else {
		m = &mf
	}
	var c *records.Complete
	var cf records.Complete
	path := filepath.Join(dir, records.SessionCompleteFile)
	if err := readJSON(path, &cf); err != nil {
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
