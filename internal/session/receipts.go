package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// AcceptedTasks are the project's recorded tasks that a receipt can follow
// (spec §11.3), oldest first: accepted, with an isolated change (a
// snapshot and a different head commit) whatever became of it after (applied
// by the loop or by apply, or kept and merged by hand). audit is the
// project's ledger (nil when it has none); a task's receipt names the
// ledger entry of its last gate only when that entry verifies.
func AcceptedTasks(projectDir string, audit *ledger.Audit) ([]receipt.Task, []string) {
	ids, err := history.TasksSince(projectDir, time.Time{})
	if err != nil {
		return nil, []string{fmt.Sprintf("cannot list the recorded tasks: %v", err)}
	}
	var tasks []receipt.Task
	var warnings []string
	for _, id := range ids {
		t, ok, err := acceptedTask(filepath.Join(projectDir, id), audit)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("task %s: %v", id, err))
		}
		if ok {
			tasks = append(tasks, t)
		}
	}
	return tasks, warnings
}

func acceptedTask(dir string, audit *ledger.Audit) (receipt.Task, bool, error) {
	data, ok := store.ReadOptional(filepath.Join(dir, records.ReportFile), 64<<20, func(string) {})
	if !ok {
		return receipt.Task{}, false, nil // still running, or from before report.json
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return receipt.Task{}, false, fmt.Errorf("%s: %w", records.ReportFile, err)
	}
	iso := rep.Isolation
	if rep.Outcome != Accepted || iso == nil || iso.Snapshot == "" || iso.Head == "" || iso.Snapshot == iso.Head || len(rep.Iterations) == 0 {
		return receipt.Task{}, false, nil
	}
	last := rep.Iterations[len(rep.Iterations)-1]
	v := receipt.Verdict{Outcome: rep.Outcome, Passed: true, Score: rep.FinalScore, Families: rep.Families,
		CostUSD: rep.CostUSD, DurationMS: rep.DurationMS, JudgedAt: rep.StartedAt, TaskID: rep.TaskID,
		Rubric: receipt.Rubric{ID: rep.RubricID}}
	for _, j := range last.Judges {
		v.Judges = append(v.Judges, receipt.Judge{ID: j.JudgeID, Type: j.Type, Model: j.Model, Provider: j.Provider,
			Family: j.Family, Score: j.Score, Passed: j.Passed})
	}
	var m records.Manifest
	if data, ok := store.ReadOptional(filepath.Join(dir, records.ManifestFile), 64<<20, func(string) {}); ok && json.Unmarshal(data, &m) == nil {
		v.ActorModel, v.MetaModel = m.Effective.ActorModel, m.Effective.MetaModel
		if d, err := jcs.SHA256(m.Rubric); err == nil && len(m.Rubric) > 0 {
			v.Rubric.SHA256 = d
		}
	}
	if e := gateEntry(audit, rep.TaskID, last.IterationID); e != nil {
		v.Ledger = &receipt.LedgerRef{Kind: e.Kind, Seq: e.Seq, Hash: e.Hash, IterationID: e.IterationID}
		v.JudgedAt = e.Time
	}
	return receipt.Task{Verdict: v, Snapshot: iso.Snapshot, Head: iso.Head}, true, nil
}

// gateEntry is the verified ledger entry of the task's gate decision for
// the iteration, the last one when there are several.
func gateEntry(audit *ledger.Audit, taskID, iterationID string) *ledger.Entry {
	if audit == nil {
		return nil
	}
	for i := len(audit.Entries) - 1; i >= 0; i-- {
		e := &audit.Entries[i]
		if e.Kind == ledger.KindGate && e.TaskID == taskID && e.IterationID == iterationID && audit.HoldsAt(e.Seq) {
			return e
		}
	}
	return nil
}
