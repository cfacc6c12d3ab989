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
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/surface"
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

// Manifest is a task's manifest.json (spec §7.6 plus the Go "effective" block).
type Manifest struct {
	TaskID      string          `json:"task_id"`
	TaskSummary string          `json:"task_summary"`
	RubricID    string          `json:"rubric_id"`
	Rubric      json.RawMessage `json:"rubric"`
	StartedAt   string          `json:"started_at"`
	SessionID   string          `json:"session_id"`
	Effective   struct {
		Params       json.RawMessage `json:"params"`
		ActorModel   string          `json:"actor_model_id"`
		JudgeModels  []string        `json:"judge_model_ids"`
		MetaModel    string          `json:"meta_model_id"`
		WorktreeRoot string          `json:"worktree_root"`
	} `json:"effective"`
}

// Params are the effective parameters replay and show need, from the
// manifest's effective.params.
type Params struct {
	GatePolicy           string   `json:"gate_policy"`
	AggregationMethod    string   `json:"aggregation_method"`
	ScoreThreshold       *float64 `json:"score_threshold"`
	DissentThreshold     *float64 `json:"dissent_threshold"`
	MinCriterionCoverage *float64 `json:"min_criterion_coverage"`
	MaxIterations        int      `json:"max_iterations"`
}

// Complete is session-complete.json, or the session.complete event when
// the file is missing.
type Complete struct {
	Outcome         string   `json:"outcome"`
	FinalScore      *float64 `json:"final_score,omitempty"`
	IterationsUsed  *int     `json:"iterations_used,omitempty"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty"`
	TotalDurationMS *int     `json:"total_duration_ms,omitempty"`
	Error           string   `json:"error,omitempty"`
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
		if e.IsDir() && surface.ValidTaskID(e.Name()) {
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
		id, ok := strings.CutPrefix(e.Name(), "iteration-")
		if ok && e.IsDir() && surface.ValidTaskID(id) {
			dirs = append(dirs, filepath.Join(taskDir, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}

// params decodes the manifest's effective parameters; ok is false when the
// manifest has none usable.
func (m *Manifest) params() (Params, bool) {
	var p Params
	if m == nil || len(m.Effective.Params) == 0 || json.Unmarshal(m.Effective.Params, &p) != nil {
		return Params{}, false
	}
	return p, p.GatePolicy != "" && p.ScoreThreshold != nil
}

// loadTask reads a task's manifest and completion record. Problems are
// returned, never fatal: a task with a corrupt manifest still lists.
func loadTask(projectDir, id string) (*Manifest, *Complete, []Problem) {
	dir := filepath.Join(projectDir, id)
	var problems []Problem
	var m *Manifest
	var mf Manifest
	if err := readJSON(filepath.Join(dir, "manifest.json"), &mf); err != nil {
		problems = append(problems, asProblem(err))
	} else {
		m = &mf
	}
	var c *Complete
	var cf Complete
	path := filepath.Join(dir, "session-complete.json")
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
