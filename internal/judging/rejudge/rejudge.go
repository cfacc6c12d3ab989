// Package rejudge runs the current judge configuration over the recorded
// iterations of past /tribunal tasks (shadow mode) and reports what it
// would have decided, without altering any recorded decision.
package rejudge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// maxDiff bounds how much of a recorded diff is read.
const maxDiff = 16 << 20

// Options are what the user asked for.
type Options struct {
	// TaskIDs are the tasks to re-judge (ids as resolved by the caller).
	TaskIDs []string
	// RubricID overrides each task's own rubric id ("" keeps it).
	RubricID string
	// WorktreeRoot is the repository: its configuration layers apply and
	// its object store holds the iterations' commits.
	WorktreeRoot string
	// ProjectDir is the project's tribunal directory.
	ProjectDir string
}

// Deps is everything a rejudging touches outside memory: the shared
// environment (internal/env). Progress receives one line per step, Warn
// each warning and Relay the judges' warnings, as plain text.
type Deps struct {
	env.Env
}

// Decision is a gate decision and the aggregate it was made at.
type Decision struct {
	Passed    bool     `json:"passed"`
	Reason    string   `json:"reason,omitempty"`
	Aggregate *float64 `json:"aggregated_score,omitempty"`
}

// Judge is one seat's new verdict.
type Judge struct {
	Type   string   `json:"judge_type"`
	Model  string   `json:"model,omitempty"`
	Score  *float64 `json:"score,omitempty"`
	Passed bool     `json:"passed"`
	Failed bool     `json:"failed,omitempty"`
	Error  string   `json:"error,omitempty"`
}

// Iteration is one recorded iteration and its re-judging.
type Iteration struct {
	Number   int       `json:"iteration_number"`
	ID       string    `json:"iteration_id"`
	Recorded *Decision `json:"recorded,omitempty"`
	New      *Decision `json:"new,omitempty"`
	// Flipped is set when the new gate decides pass/fail differently.
	Flipped bool    `json:"flipped"`
	Judges  []Judge `json:"judges,omitempty"`
	// Failed is set when no new judge produced a usable verdict: no new
	// decision, and never a flip.
	Failed  bool     `json:"failed,omitempty"`
	Error   string   `json:"error,omitempty"`
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Skipped says why the iteration was not re-judged.
	Skipped string `json:"skipped,omitempty"`
	// Note says what the judges could not see (the iteration's tree).
	Note string `json:"note,omitempty"`
}

// Task is one task's re-judging.
type Task struct {
	TaskID     string      `json:"task_id"`
	Summary    string      `json:"task_summary,omitempty"`
	RubricID   string      `json:"rubric_id,omitempty"`
	Judge      string      `json:"judge_configuration,omitempty"`
	Iterations []Iteration `json:"iterations,omitempty"`
	Flips      int         `json:"flips"`
	// Skipped says why the whole task was not re-judged.
	Skipped string `json:"skipped,omitempty"`
	// Stored is the file the result was written to, beside the task.
	Stored string `json:"stored,omitempty"`
	// RejudgeID names this re-judging in the file name and the ledger.
	RejudgeID string `json:"rejudge_id,omitempty"`
	At        string `json:"at,omitempty"`
}

// Result is a whole run.
type Result struct {
	Tasks      []Task   `json:"tasks"`
	Rejudged   int      `json:"iterations_rejudged"`
	Flips      int      `json:"flips"`
	Failed     int      `json:"iterations_failed"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	Incomplete bool     `json:"incomplete,omitempty"`
}

// ErrInterrupted marks a run stopped by its context; finished tasks are
// stored and reported.
var ErrInterrupted = errors.New("interrupted")

// Run re-judges every task in opts. A configuration error (*judging.
// ConfigError) stops it before any call.
func Run(ctx context.Context, opts Options, d Deps) (*Result, error) {
	d.Env = d.Env.WithDefaults()
	juries := map[string]*judging.Jury{}
	jury := func(id string) (*judging.Jury, error) {
		if j, ok := juries[id]; ok {
			return j, nil
		}
		j, err := judging.Load(judging.Options{RubricID: id, WorktreeRoot: opts.WorktreeRoot}, env.Env{
			Getenv: d.Getenv, Home: d.Home, Warn: d.Warn, Relay: d.Relay, Now: d.Now, Rand: d.Rand, Claude: d.Claude, Environ: d.Environ,
			Schemas: d.Schemas,
		})
		if err != nil {
			return nil, err
		}
		juries[id] = j
		return j, nil
	}
	// The configuration must load before anything is paid for.
	if _, err := jury(opts.RubricID); err != nil {
		return nil, err
	}
	res := &Result{}
	var cost float64
	costSeen := false
	for _, id := range opts.TaskIDs {
		if ctx.Err() != nil {
			res.Incomplete = true
			break
		}
		t, err := rejudgeTask(ctx, opts, d, id, jury)
		if err != nil {
			return res, err
		}
		for _, it := range t.Iterations {
			if it.Skipped != "" {
				continue
			}
			if it.Failed {
				res.Failed++
			} else {
				res.Rejudged++
			}
			if it.Flipped {
				res.Flips++
			}
			if it.CostUSD != nil {
				cost += *it.CostUSD
				costSeen = true
			}
		}
		res.Tasks = append(res.Tasks, t)
	}
	if costSeen {
		res.CostUSD = &cost
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("%w: %d task(s) re-judged and stored", ErrInterrupted, len(res.Tasks))
	}
	return res, nil
}

func (d Deps) progress(format string, args ...any) {
	d.Progress(fmt.Sprintf(format, args...))
}

// rejudgeTask re-judges one task's iterations, then stores the result
// beside the task and appends it to the ledger.
func rejudgeTask(ctx context.Context, opts Options, d Deps, id string, jury func(string) (*judging.Jury, error)) (Task, error) {
	taskDir := filepath.Join(opts.ProjectDir, id)
	t := Task{TaskID: id}
	var m records.Manifest
	if records.ReadJSON(filepath.Join(taskDir, records.ManifestFile), &m) == nil {
		t.Summary = m.TaskSummary
		t.RubricID = m.RubricID
	}
	iterations := readIterations(taskDir)
	taskText := readText(filepath.Join(taskDir, records.TaskTextFile))
	if taskText == "" {
		taskText = t.Summary
	}
	if taskText == "" {
		t.Skipped = "its task text is not recorded (task.md and manifest.json are missing)"
		d.progress("task %s: skipped: %s", id, t.Skipped)
		return t, nil
	}
	withDiff := 0
	for _, it := range iterations {
		if _, err := os.Stat(filepath.Join(it.Dir, records.DiffSnapshotFile)); err == nil {
			withDiff++
		}
	}
	if withDiff == 0 {
		t.Skipped = "no iteration of it has a stored diff (it was recorded before tribunal stored diffs, or ran --in-place), so there is nothing to re-judge"
		d.progress("task %s: skipped: %s", id, t.Skipped)
		return t, nil
	}
	rubricID := opts.RubricID
	if rubricID == "" {
		rubricID = t.RubricID
	}
	j, err := jury(rubricID)
	if err != nil {
		var ce *judging.ConfigError
		if errors.As(err, &ce) && opts.RubricID == "" {
			// The task's rubric no longer exists: say so for this task.
			t.Skipped = "its rubric cannot be loaded now: " + ce.Err.Error()
			d.progress("task %s: skipped: %s", id, t.Skipped)
			return t, nil
		}
		return t, err
	}
	t.RubricID = j.RubricID()
	t.Judge = fmt.Sprintf("jury %s, threshold %s, gate policy %s", strings.Join(j.Seats(), ", "), rules.Num(j.Params().ScoreThreshold), j.Params().GatePolicy)
	commits := recordedCommits(taskDir)
	for _, it := range iterations {
		if ctx.Err() != nil {
			return t, nil
		}
		t.Iterations = append(t.Iterations, rejudgeIteration(ctx, opts, d, j, id, taskText, it, commits[it.ID]))
	}
	if ctx.Err() != nil {
		// A half-judged task is not stored: the next run does it whole.
		return t, nil
	}
	for _, it := range t.Iterations {
		if it.Flipped {
			t.Flips++
		}
	}
	save(opts, d, &t)
	return t, nil
}

// recorded is what rejudge reads of one recorded iteration: where it is,
// what the actor said, and what its gate decided.
type recorded struct {
	Number    int // 0-based
	ID        string
	Dir       string
	ActorText string
	Gate      *records.Gate
	Consensus *events.ConsensusReached
}

// readIterations reads a task's iterations in order; a file that cannot
// be read leaves its field empty (the iteration is then skipped, with the
// reason, by rejudgeIteration).
func readIterations(taskDir string) []recorded {
	dirs, _ := records.IterationDirs(taskDir)
	out := make([]recorded, len(dirs))
	for n, d := range dirs {
		out[n] = recorded{Number: n, ID: records.IterationIDOf(d), Dir: d, ActorText: records.ActorText(d)}
		var g records.Gate
		if records.ReadJSON(filepath.Join(d, records.GateFile), &g) == nil {
			out[n].Gate = &g
		}
		var c events.ConsensusReached
		if records.ReadJSON(filepath.Join(d, records.ConsensusFile), &c) == nil {
			out[n].Consensus = &c
		}
	}
	return out
}

func rejudgeIteration(ctx context.Context, opts Options, d Deps, j *judging.Jury, taskID, taskText string, it recorded, commit string) Iteration {
	out := Iteration{Number: it.Number, ID: it.ID}
	if it.Gate != nil {
		out.Recorded = &Decision{Passed: it.Gate.Passed && it.Gate.BlockedBy == "", Reason: string(it.Gate.Reason)}
		if it.Gate.BlockedBy != "" {
			out.Recorded.Reason = strings.TrimSpace(string(it.Gate.Reason) + " blocked by " + string(it.Gate.BlockedBy))
		}
		if it.Consensus != nil {
			a := it.Consensus.AggregatedScore
			out.Recorded.Aggregate = &a
		}
	}
	diff, ok := readDiff(filepath.Join(it.Dir, records.DiffSnapshotFile))
	switch {
	case !ok:
		out.Skipped = "no recorded diff (recorded before diffs were stored, or unreadable)"
	case out.Recorded == nil:
		out.Skipped = "the iteration ended before its gate: no recorded decision to compare"
	}
	label := fmt.Sprintf("task %s iteration %d", taskID, it.Number+1)
	if out.Skipped != "" {
		d.progress("%s: skipped: %s", label, out.Skipped)
		return out
	}
	dir, note, cleanup := tree(ctx, d, opts.WorktreeRoot, commit)
	defer cleanup()
	out.Note = note
	d.progress("%s: judging with the current configuration…", label)
	jd, err := j.JudgeDiff(ctx, judging.Work{Task: taskText, Files: unidiff.Parse([]byte(diff)), ActorOutput: it.ActorText, Iteration: it.Number, Dir: dir})
	out.CostUSD = jd.CostUSD
	for _, v := range jd.Verdicts {
		jv := Judge{Type: v.JudgeType, Model: v.JudgeModelID, Passed: v.Passed, Failed: v.Failed, Error: v.Error}
		if s, ok := v.UsableScore(); ok {
			jv.Score = &s
		}
		out.Judges = append(out.Judges, jv)
	}
	switch {
	case err != nil:
		out.Failed, out.Error = true, err.Error()
	case jd.Usable == 0:
		out.Failed, out.Error = true, "no judge gave a usable verdict"
	default:
		g := jd.Iteration.Gate
		out.New = &Decision{Passed: g.Passed, Reason: string(g.Reason)}
		if g.BlockedBy != "" {
			out.New.Reason = strings.TrimSpace(string(g.Reason) + " blocked by " + string(g.BlockedBy))
		}
		if c := jd.Iteration.Consensus; c != nil {
			a := c.Aggregate
			out.New.Aggregate = &a
		}
		out.Flipped = out.New.Passed != out.Recorded.Passed
		if out.Flipped && it.Gate.BlockedBy == rules.ByCommand {
			// Command judges test the repository's tree, not a recorded
			// diff, so they do not sit here: a pass over a command block is
			// the judges agreeing, not a changed decision.
			out.Flipped = false
			out.Note = strings.TrimSpace(out.Note + " the recorded gate was blocked by a command judge, which rejudge does not re-run; not counted as a flip")
		}
	}
	d.progress("%s: %s", label, Line(out))
	return out
}

// Line describes an iteration's re-judging in one line.
func Line(it Iteration) string {
	word := func(dc *Decision) string {
		if dc == nil {
			return "none"
		}
		s := "blocked"
		if dc.Passed {
			s = "passed"
		}
		if dc.Aggregate != nil {
			s += fmt.Sprintf(" at %.2f", *dc.Aggregate)
		}
		if !dc.Passed && dc.Reason != "" {
			s += " (" + dc.Reason + ")"
		}
		return s
	}
	switch {
	case it.Skipped != "":
		return "skipped: " + it.Skipped
	case it.Failed:
		return "recorded " + word(it.Recorded) + "; new: no decision (" + safetext.FirstLine(it.Error, 200) + ")"
	}
	s := "recorded " + word(it.Recorded) + "; new " + word(it.New)
	if it.Flipped {
		s += " — FLIPPED"
	}
	return s
}

// readText is a recorded text file's content, "" when it cannot be read
// (records.ReadText refuses a named pipe rather than wait on it).
func readText(path string) string {
	data, err := records.ReadText(path, records.MaxArtifact)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// readDiff is the first maxDiff bytes of a recorded diff.
func readDiff(path string) (string, bool) {
	data, err := records.ReadHead(path, maxDiff)
	if err != nil {
		return "", false
	}
	return string(data), true
}

// recordedCommits maps iteration ids to the task branch's commit after
// each iteration's actor, from report.json.
func recordedCommits(taskDir string) map[string]string {
	out := map[string]string{}
	var rep struct {
		Iterations []judging.IterationReport `json:"iterations"`
	}
	if records.ReadJSON(filepath.Join(taskDir, records.ReportFile), &rep) == nil {
		for _, it := range rep.Iterations {
			if it.Commit != "" {
				out[it.IterationID] = it.Commit
			}
		}
	}
	return out
}

// record is what a re-judging stores and signs: the new decisions beside
// the recorded ones, never in their place.
type record struct {
	RejudgeID  string      `json:"rejudge_id"`
	At         string      `json:"at"`
	RubricID   string      `json:"rubric_id"`
	Judge      string      `json:"judge_configuration"`
	Iterations []Iteration `json:"iterations"`
	Flips      int         `json:"flips"`
}

// save writes the task's result to <task>/rejudge-<id>.json and appends
// it to the ledger as a rejudge entry; failures are warnings (the result
// is still printed).
func save(opts Options, d Deps, t *Task) {
	id, err := events.NewULID(d.Rand, d.Now())
	if err != nil {
		d.Warn(fmt.Sprintf("task %s: re-judging not stored: %v", t.TaskID, err))
		return
	}
	t.RejudgeID = id
	t.At = d.Now().UTC().Format(time.RFC3339)
	rec := record{RejudgeID: id, At: t.At, RubricID: t.RubricID, Judge: t.Judge, Iterations: t.Iterations, Flips: t.Flips}
	path := filepath.Join(opts.ProjectDir, t.TaskID, records.RejudgePrefix+id+records.JSONExt)
	if err := store.WriteJSON(path, rec); err != nil {
		d.Warn(fmt.Sprintf("task %s: re-judging not stored: %v", t.TaskID, err))
	} else {
		t.Stored = path
	}
	onlookerDir, _ := events.ResolvePaths(d.Getenv, d.Home)
	if _, err := ledger.Append(ledger.PathFor(opts.ProjectDir), ledger.KeyDir(onlookerDir), ledger.KindRejudge,
		ledger.Fields{TaskID: t.TaskID}, rec, d.Now()); err != nil {
		d.Warn(fmt.Sprintf("task %s: re-judging not added to the ledger: %v", t.TaskID, err))
	}
}
