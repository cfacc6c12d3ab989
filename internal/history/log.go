package history

import (
	"path/filepath"
	"sort"
	"time"

	"github.com/tribunal-cc/tribunal/internal/surface"
)

// Kinds of records.
const (
	KindTask     = "task"
	KindAdvisory = "advisory"
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
	TaskID    string    `json:"task_id"`
	SessionID string    `json:"session_id,omitempty"`
	Time      time.Time `json:"time"`
	// Summary is the task summary, or the advisory judge's feedback.
	Summary    string   `json:"summary"`
	Outcome    string   `json:"outcome"`
	FinalScore *float64 `json:"final_score,omitempty"`
	Iterations *int     `json:"iterations,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	// Source says where the outcome came from when it is not the task's own
	// files ("events log").
	Source string `json:"source,omitempty"`
}

// LogResult is a project's history, newest first.
type LogResult struct {
	Entries []Entry `json:"entries"`
	// Total counts every record found, before the limit.
	Total    int       `json:"total"`
	Problems []Problem `json:"-"`
}

// Log lists up to limit (0: all) of the project's tasks and advisory
// verdicts, newest first. Tasks are dated by their ULID (the moment the
// task started), advisory verdicts by written_at. A record whose files are
// damaged is still listed with what could be read; its problems are
// returned. The events log at logPath fills in the outcome of tasks that
// have no session-complete.json.
func Log(projectDir, logPath string, limit int) LogResult {
	var res LogResult
	ids, err := taskIDs(projectDir)
	if err != nil {
		res.Problems = append(res.Problems, asProblem(err))
	}
	type rec struct {
		t      time.Time
		taskID string // a task
		adv    *surface.Advisory
	}
	var recs []rec
	for _, id := range ids {
		recs = append(recs, rec{t: ulidTime(id), taskID: id})
	}
	// Every judgement of a session is a record of its own; a stop file
	// (the session's latest verdict) is listed only when no record holds
	// its verdict, as for sessions judged before records were kept.
	records, _ := surface.ListRecords(projectDir)
	listed := map[string]bool{}
	for _, p := range records {
		a, err := surface.ReadRecord(p)
		if err != nil {
			res.Problems = append(res.Problems, Problem{Path: p, Err: unwrapPath(err)})
			continue
		}
		listed[a.TaskID] = true
		recs = append(recs, rec{t: a.WrittenAt, adv: &a})
	}
	stops, err := surface.ListStopFiles(projectDir)
	if err != nil && len(res.Problems) == 0 {
		// An unreadable project directory is reported once, above.
		res.Problems = append(res.Problems, Problem{Path: projectDir, Err: unwrapPath(err)})
	}
	for _, p := range stops {
		a, err := surface.ReadStopFile(p)
		if err != nil {
			res.Problems = append(res.Problems, Problem{Path: p, Err: unwrapPath(err)})
			continue
		}
		if listed[a.TaskID] {
			continue
		}
		recs = append(recs, rec{t: a.WrittenAt, adv: &a})
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if !recs[i].t.Equal(recs[j].t) {
			return recs[i].t.After(recs[j].t)
		}
		return recID(recs[i].taskID, recs[i].adv) > recID(recs[j].taskID, recs[j].adv)
	})
	res.Total = len(recs)
	if limit > 0 && len(recs) > limit {
		recs = recs[:limit]
	}
	var missing []string
	for _, r := range recs {
		if r.adv != nil {
			res.Entries = append(res.Entries, advisoryEntry(*r.adv))
			continue
		}
		m, c, problems := loadTask(projectDir, r.taskID)
		res.Problems = append(res.Problems, problems...)
		e := Entry{Kind: KindTask, ID: r.taskID, TaskID: r.taskID, Time: r.t, Outcome: OutcomeIncomplete}
		if m != nil {
			e.Summary, e.SessionID = m.TaskSummary, m.SessionID
		}
		if c != nil {
			fillComplete(&e, c)
		} else {
			missing = append(missing, r.taskID)
		}
		if e.Iterations == nil {
			if dirs, err := iterationDirs(filepath.Join(projectDir, r.taskID)); err == nil {
				n := len(dirs)
				e.Iterations = &n
			}
		}
		res.Entries = append(res.Entries, e)
	}
	if len(missing) > 0 {
		evs, err := scanEvents(logPath, missing)
		if err != nil {
			res.Problems = append(res.Problems, asProblem(err))
		}
		for i := range res.Entries {
			e := &res.Entries[i]
			if e.Kind != KindTask || e.Outcome != OutcomeIncomplete {
				continue
			}
			if c, ok := completeFromEvents(evs[e.TaskID]); ok {
				fillComplete(e, c)
				e.Source = "events log"
			}
		}
	}
	return res
}

func recID(taskID string, a *surface.Advisory) string {
	if a != nil {
		return a.TaskID
	}
	return taskID
}

func fillComplete(e *Entry, c *Complete) {
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
func advisoryEntry(a surface.Advisory) Entry {
	one := 1
	score := a.Score
	e := Entry{
		Kind: KindAdvisory, ID: a.SessionName(), TaskID: a.TaskID, SessionID: a.SessionID,
		Time: a.WrittenAt, Summary: a.Feedback, Outcome: a.Outcome, FinalScore: &score,
		Iterations: &one, CostUSD: a.CostUSD,
	}
	if surface.IsRecordPath(a.Path) {
		e.ID = a.TaskID
	}
	if a.Outcome == surface.OutcomeFailed || a.Outcome == surface.OutcomeCancelled {
		e.FinalScore, e.Summary = nil, "no verdict: "+a.Error
	}
	if a.Rewake {
		e.Summary = "handed back to the model: " + e.Summary
	}
	return e
}
