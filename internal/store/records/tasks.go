package records

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// The layout of a project's tasks on disk (spec §7.6), read by every part
// that looks back at them: the log and show (present/history), and the
// engine's calibrate and rejudge, which must not import the presenters.

// TaskIDs lists the task directories of a project, newest first: the
// subdirectories whose name is a ULID. Other entries (stop files, runs/,
// surfaced/, the project manifest) are not tasks. A project directory
// that does not exist has none.
func TaskIDs(projectDir string) ([]string, error) {
	entries, err := os.ReadDir(projectDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, FileProblem(projectDir, err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && ValidID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	return ids, nil
}

// TaskTime is the creation time encoded in a task id (zero for an id
// that is not a ULID).
func TaskTime(id string) time.Time {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return time.Time{}
	}
	return ulid.Time(u.Time()).UTC()
}

// IterationDirs lists a task's iteration directories in order. Their
// names carry ULIDs, so name order is creation order (spec §7.6).
func IterationDirs(taskDir string) ([]string, error) {
	entries, err := os.ReadDir(taskDir)
	if err != nil {
		return nil, FileProblem(taskDir, err)
	}
	var dirs []string
	for _, e := range entries {
		id, ok := strings.CutPrefix(e.Name(), IterationPrefix)
		if ok && e.IsDir() && ValidID(id) {
			dirs = append(dirs, filepath.Join(taskDir, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}

// IterationIDOf is the iteration id an iteration directory is named by.
func IterationIDOf(dir string) string {
	return strings.TrimPrefix(filepath.Base(dir), IterationPrefix)
}

// IterationDiff returns a stored diff of iteration n (1-based; 0 means the
// last one) of a task: the task's change since its starting snapshot, or,
// with previous, that iteration's own change since the one before.
func IterationDiff(projectDir, taskID string, n int, previous bool) (string, error) {
	dirs, err := IterationDirs(filepath.Join(projectDir, taskID))
	if err != nil {
		return "", err
	}
	if len(dirs) == 0 {
		return "", fmt.Errorf("task %s has no iterations", taskID)
	}
	if n == 0 {
		n = len(dirs)
	}
	if n < 1 || n > len(dirs) {
		return "", fmt.Errorf("task %s has %d iteration(s); there is no iteration %d", taskID, len(dirs), n)
	}
	name := DiffSnapshotFile
	if previous {
		name = DiffPreviousFile
	}
	data, err := ReadText(filepath.Join(dirs[n-1], name), MaxDiff)
	var p *Problem
	if errors.As(err, &p) && errors.Is(p.Err, ErrMissing) {
		return "", fmt.Errorf("iteration %d of task %s has no stored diff (a run with --in-place, or one from before diffs were kept)", n, taskID)
	}
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// MaxActorText bounds the actor output ActorText keeps; actor.md on disk
// is the long form.
const MaxActorText = 4000

// ActorText is an iteration's actor output as show prints it and rejudge
// hands it to the judges again: at most MaxActorText bytes, cut on a
// character with a marker; "" when actor.md cannot be read.
func ActorText(iterationDir string) string {
	data, err := ReadText(filepath.Join(iterationDir, ActorFile), MaxArtifact)
	if err != nil {
		return ""
	}
	s := strings.TrimRight(string(data), "\n")
	if len(s) <= MaxActorText {
		return s
	}
	return safetext.Head(s, MaxActorText) + " …"
}

// Rec is one record of a project as the log lists it: a task (TaskID,
// no Advisory) or an advisory verdict.
type Rec struct {
	Time     time.Time
	TaskID   string
	Advisory *Advisory
}

// ID is the task id of either kind of record (an advisory verdict has
// one).
func (r Rec) ID() string {
	if r.Advisory != nil {
		return r.Advisory.TaskID
	}
	return r.TaskID
}

// ProjectRecs finds the project's tasks and advisory verdicts, newest
// first (ties broken by id, for a stable order). Tasks are dated by their
// ULID, advisory verdicts by written_at. What cannot be read is returned
// as problems, and the rest is still listed.
func ProjectRecs(projectDir string) ([]Rec, []Problem) {
	var problems []Problem
	ids, err := TaskIDs(projectDir)
	if err != nil {
		problems = append(problems, asProblem(err))
	}
	var recs []Rec
	for _, id := range ids {
		recs = append(recs, Rec{Time: TaskTime(id), TaskID: id})
	}
	adv, ps := advisoryRecs(projectDir, len(problems) > 0)
	recs, problems = append(recs, adv...), append(problems, ps...)
	sort.SliceStable(recs, func(i, j int) bool {
		if !recs[i].Time.Equal(recs[j].Time) {
			return recs[i].Time.After(recs[j].Time)
		}
		return recs[i].ID() > recs[j].ID()
	})
	return recs, problems
}

// advisoryRecs finds the project's advisory verdicts. Every judgement of
// a session is a record of its own; a stop file (the session's latest
// verdict) is listed only when no record holds its verdict, as for
// sessions judged before records were kept. reported says the project
// directory's problem was already returned.
func advisoryRecs(projectDir string, reported bool) ([]Rec, []Problem) {
	var recs []Rec
	var problems []Problem
	judgements, _ := ListRecords(projectDir)
	listed := map[string]bool{}
	for _, p := range judgements {
		a, err := ReadRecord(p)
		if err != nil {
			problems = append(problems, *FileProblem(p, err))
			continue
		}
		listed[a.TaskID] = true
		recs = append(recs, Rec{Time: a.WrittenAt, Advisory: &a})
	}
	stops, err := ListStopFiles(projectDir)
	if err != nil && !reported && len(problems) == 0 {
		// An unreadable project directory is reported once.
		problems = append(problems, *FileProblem(projectDir, err))
	}
	for _, p := range stops {
		a, err := ReadStopFile(p)
		if err != nil {
			problems = append(problems, *FileProblem(p, err))
			continue
		}
		if listed[a.TaskID] {
			continue
		}
		recs = append(recs, Rec{Time: a.WrittenAt, Advisory: &a})
	}
	return recs, problems
}

// asProblem turns an error from the readers into a Problem.
func asProblem(err error) Problem {
	var p *Problem
	if errors.As(err, &p) {
		return *p
	}
	return Problem{Err: err}
}
