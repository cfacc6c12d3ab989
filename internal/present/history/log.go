package history

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Kinds of records.
const (
	KindTask     = "task"
	KindAdvisory = "advisory"
	// KindReview is a review of an existing change (`tribunal-session
	// review`): a task directory whose manifest says so; show, view and
	// replay read it as a task.
	KindReview = records.KindReview
	// KindAnswer is a judged answer (`tribunal-session judge`): a task
	// directory whose manifest says so, read as a task too.
	KindAnswer = records.KindAnswer
)

// OutcomeIncomplete is the outcome of a task with no completion record, in
// its directory or in the events log: it is still running, or its process
// died before it could finish.
const OutcomeIncomplete = "incomplete"

// Entry is one line of the log: a /tribunal task or an advisory verdict.
type Entry struct {
	Kind string `json:"kind"`
	// ID is what `show` takes: the task id, or for an advisory verdict the
	// sanitised session id of its stop file.
	ID string `json:"id"`
	// TaskID is the task id of either kind (an advisory verdict has one).
	TaskID    string `json:"task_id"`
	SessionID string `json:"session_id,omitempty"`
	// Parent is a best-of-N candidate's task (spec §7.17).
	Parent string    `json:"parent_task_id,omitempty"`
	Time   time.Time `json:"time"`
	// Summary is the task summary, or the advisory judge's feedback.
	Summary string `json:"summary"`
	// ShortID is the shortest end of a task id (a prefix of a session
	// id; ShortIDs) that names this record alone in the project; show,
	// view, wait and cancel accept it.
	ShortID    string   `json:"short_id"`
	Outcome    string   `json:"outcome"`
	FinalScore *float64 `json:"final_score,omitempty"`
	Iterations *int     `json:"iterations,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	// Source says where the outcome came from when it is not the task's own
	// files ("events log").
	Source string `json:"source,omitempty"`
	// path is an advisory verdict's file (a stop file or a judgement
	// record), which Ref names.
	path string
}

// LogResult is a project's history, newest first.
type LogResult struct {
	Entries []Entry `json:"entries"`
	// Total counts every record found, before the limit.
	Total int `json:"total"`
	// Kept lists the tasks whose change is kept on refs/tribunal/tasks/<id>
	// (not accepted, or conflicting with the user's edits), oldest first;
	// the caller fills it (worktree.KeptTasks), since where task worktrees
	// live depends on the environment.
	Kept     []string          `json:"kept,omitempty"`
	Problems []records.Problem `json:"-"`
}

// LogOptions select the records Log lists.
type LogOptions struct {
	// Limit is how many records to list at most; 0 lists all.
	Limit int
	// Since drops records older than it (zero: none dropped).
	Since time.Time
	// Outcomes keeps only records with one of these outcomes (empty:
	// all). A task without a completion record has OutcomeIncomplete.
	Outcomes []string
}

// Log lists the project's tasks and advisory verdicts that opts select,
// newest first. Tasks are dated by their ULID (the moment the task
// started), advisory verdicts by written_at. A record whose files are
// damaged is still listed with what could be read; its problems are
// returned. The events log at logPath fills in the outcome of tasks that
// have no session-complete.json. Total counts the records that match the
// filters, before the limit.
func Log(projectDir, logPath string, opts LogOptions) LogResult {
	var res LogResult
	recs, problems := records.ProjectRecs(projectDir)
	res.Problems = append(res.Problems, problems...)
	// Short ids are computed over every record, before the filters, so
	// that a short id names one record in the whole project.
	var all []string
	for _, r := range recs {
		all = append(all, recName(r.TaskID, r.Advisory))
	}
	shorts := ShortIDs(all)
	if !opts.Since.IsZero() {
		kept := recs[:0:0]
		for _, r := range recs {
			if !r.Time.Before(opts.Since) {
				kept = append(kept, r)
			}
		}
		recs = kept
	}
	// Without an outcome filter the limit applies before the task files
	// are read; with one, every candidate's outcome must be known first.
	limit := opts.Limit
	if len(opts.Outcomes) == 0 {
		res.Total = len(recs)
		if limit > 0 && len(recs) > limit {
			recs = recs[:limit]
		}
	}
	missing := res.addEntries(projectDir, recs)
	res.fillFromEvents(logPath, missing)
	res.setShortIDs(shorts)
	if len(opts.Outcomes) > 0 {
		res.keepOutcomes(opts.Outcomes, limit)
	}
	return res
}

// addEntries reads recs into res.Entries, in order, and returns the tasks
// that have no completion record.
func (res *LogResult) addEntries(projectDir string, recs []records.Rec) (missing []string) {
	for _, r := range recs {
		if r.Advisory != nil {
			res.Entries = append(res.Entries, advisoryEntry(*r.Advisory))
			continue
		}
		e, complete := res.taskEntry(projectDir, r.TaskID, r.Time)
		if !complete {
			missing = append(missing, r.TaskID)
		}
		res.Entries = append(res.Entries, e)
	}
	return missing
}

// taskEntry lists task id from its files, as far as they can be read
// (problems go to res.Problems); complete reports whether it has a
// completion record. A task without one is OutcomeIncomplete, with the
// iterations counted from its directory.
func (res *LogResult) taskEntry(projectDir, id string, t time.Time) (e Entry, complete bool) {
	m, c, problems := loadTask(projectDir, id)
	res.Problems = append(res.Problems, problems...)
	e = Entry{Kind: KindTask, ID: id, TaskID: id, Time: t, Outcome: OutcomeIncomplete}
	if m != nil {
		e.Summary, e.SessionID, e.Parent = Title(filepath.Join(projectDir, id), m), m.SessionID, m.Parent
		if m.Parent != "" {
			// A best-of-N candidate says whose it is (spec §7.17).
			e.Summary = "(candidate of " + m.Parent + ") " + e.Summary
		}
		switch m.Kind {
		case records.KindReview:
			e.Kind = KindReview
		case records.KindAnswer:
			e.Kind = KindAnswer
		}
	}
	if c != nil {
		fillComplete(&e, c)
	}
	if e.Iterations == nil {
		if dirs, err := records.IterationDirs(filepath.Join(projectDir, id)); err == nil {
			n := len(dirs)
			e.Iterations = &n
		}
	}
	return e, c != nil
}

// setShortIDs gives each entry its short id. A stop file's was computed
// over its file name, which keeps it apart from task ids.
func (res *LogResult) setShortIDs(shorts map[string]string) {
	for i := range res.Entries {
		e := &res.Entries[i]
		e.ShortID = shorts[e.ID]
		if e.Kind == KindAdvisory && !records.IsJudgementPath(e.path) {
			e.ShortID = shorts[records.StopPrefix+e.ID]
		}
	}
}

// keepOutcomes keeps the entries with one of outcomes, counts them in
// Total, then applies the limit (0: none).
func (res *LogResult) keepOutcomes(outcomes []string, limit int) {
	kept := res.Entries[:0]
	for _, e := range res.Entries {
		if slices.Contains(outcomes, e.Outcome) {
			kept = append(kept, e)
		}
	}
	res.Entries = kept
	res.Total = len(kept)
	if limit > 0 && len(res.Entries) > limit {
		res.Entries = res.Entries[:limit]
	}
}

// fillFromEvents completes, from the events log, the outcome of the
// listed tasks that have no session-complete.json.
func (res *LogResult) fillFromEvents(logPath string, missing []string) {
	if len(missing) > 0 {
		evs, err := scanEvents(logPath, missing)
		if err != nil {
			res.Problems = append(res.Problems, asProblem(err))
		}
		for i := range res.Entries {
			e := &res.Entries[i]
			if (e.Kind != KindTask && e.Kind != KindReview) || e.Outcome != OutcomeIncomplete {
				continue
			}
			if c, ok := completeFromEvents(evs[e.TaskID]); ok {
				fillComplete(e, c)
				e.Source = "events log"
			}
		}
	}
}

// recName is the name a record's short id is computed over: the task id,
// or the stop file's name ("stop-" plus the sanitised session id), which
// keeps task ids and session ids apart the way Resolve does.
func recName(taskID string, a *records.Advisory) string {
	switch {
	case a != nil && records.IsJudgementPath(a.Path):
		// A judgement record is named by its task id, as Resolve finds it.
		return a.TaskID
	case a != nil:
		return a.Name
	}
	return taskID
}

func fillComplete(e *Entry, c *records.Complete) {
	e.Outcome = c.Outcome
	e.FinalScore = c.FinalScore
	e.CostUSD = c.TotalCostUSD
	if c.IterationsUsed != nil {
		e.Iterations = c.IterationsUsed
	}
}

// advisoryEntry lists one advisory verdict, or a judgement that produced
// none (with its reason as the summary). A judgement record's id is its
// task id; a stop file's is its session's.
func advisoryEntry(a records.Advisory) Entry {
	one := 1
	score := a.Score
	e := Entry{
		Kind: KindAdvisory, ID: a.SessionName(), TaskID: a.TaskID, SessionID: a.SessionID,
		Time: a.WrittenAt, Summary: a.Feedback, Outcome: a.Outcome, FinalScore: &score,
		Iterations: &one, CostUSD: a.CostUSD, path: a.Path,
	}
	if records.IsJudgementPath(a.Path) {
		e.ID = a.TaskID
	}
	if a.Outcome == records.OutcomeFailed || a.Outcome == records.OutcomeCancelled {
		e.FinalScore, e.Summary = nil, "no verdict: "+a.Error
	}
	if a.Rewake {
		e.Summary = "handed back to the model: " + e.Summary
	}
	return e
}
