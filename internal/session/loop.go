package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"math"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// maxTaskSummary bounds task_summary in the manifest (spec §B.10): the full
// task is in the report and the prompts; the manifest is for listings.
const maxTaskSummary = 500

// loop runs spec §7.3–spec §7.4, each iteration by iteration, and
// finishes the task.
func (r *runner) loop(ctx context.Context, iteration func(context.Context, int) (*iterationState, error)) error {
	r.writeManifests()
	start := r.sessionStart()
	r.emit(start)
	r.write(records.SessionStartFile, start)
	r.progress("task %s: rubric %q, %d judge(s), up to %d iteration(s), policy %s",
		r.taskID, r.report.RubricID, r.report.Seats, r.params.MaxIterations, r.params.GatePolicy)

	var runErr error
	outcome := Exhausted
	for n := 0; n < r.params.MaxIterations; n++ {
		it, err := iteration(ctx, n)
		if it != nil {
			r.report.Iterations = append(r.report.Iterations, it.Report)
			r.history = append(r.history, *it)
		}
		if err != nil {
			outcome, runErr = Aborted, err
			break
		}
		if it.Report.Gate.Passed && !r.guardRejects(ctx, it) {
			outcome = Accepted
			break
		}
	}
	r.finish(ctx, outcome, runErr)
	return runErr
}

func (r *runner) sessionStart() events.SessionStart {
	seats := r.jury.Panel()
	start := events.SessionStart{
		TaskID:         r.taskID,
		GatePolicy:     eventPolicy(r.params.GatePolicy),
		ScoreThreshold: events.Ptr(r.params.ScoreThreshold),
		MaxIterations:  events.Ptr(r.params.MaxIterations),
		ActorModelID:   r.params.ActorModel,
		MetaModelID:    r.params.MetaModel,
	}
	for _, s := range seats {
		start.JudgeTypes = append(start.JudgeTypes, s.JudgeType)
		if s.Model != "" {
			start.JudgeModelIDs = append(start.JudgeModelIDs, s.Model)
		}
	}
	return start
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (r *runner) writeManifests() {
	now := r.Now().UTC().Format(time.RFC3339)
	r.report.StartedAt = now
	pm := records.ProjectManifest{
		ProjectKey: r.repo.Key,
		RemoteURL:  nullable(r.repo.RemoteURL),
		RepoRoot:   nullable(r.repo.MainRoot),
		LastTaskAt: now,
		Source:     "local",
	}
	r.storeErr(storeWrite(r.project.Dir, records.ManifestFile, pm, r.Redact))
	store.SweepTemp(r.project.Dir, time.Hour, r.Now())
	var rub json.RawMessage
	if r.rub != nil && len(r.rub.Raw) > 0 {
		rub = r.rub.Raw
	}
	summary := r.opts.Task
	if len(summary) > maxTaskSummary {
		summary = safetext.Head(summary, maxTaskSummary) + "…"
	}
	start := r.sessionStart()
	// The manifest records the effective parameters; a value that cannot
	// be encoded loses the manifest, as any failed write does.
	params, err := store.Marshal(recordParams(r.params))
	if err != nil {
		r.storeErr(fmt.Errorf("encode %q: %w", filepath.Join(r.taskDir, records.ManifestFile), err))
	} else {
		r.write(records.ManifestFile, records.Manifest{
			TaskID:         r.taskID,
			TaskSummary:    summary,
			RubricID:       r.report.RubricID,
			Rubric:         rub,
			StartedAt:      now,
			SessionID:      r.opts.SessionID,
			Kind:           r.kind(),
			Parent:         r.parentID(),
			PolicyFromBase: r.policyEdited,
			Title:          r.title,
			Effective: records.Effective{
				Params:       params,
				ActorModel:   r.params.ActorModel,
				JudgeModels:  start.JudgeModelIDs,
				MetaModel:    r.params.MetaModel,
				WorktreeRoot: r.repo.WorktreeRoot,
				Families:     r.report.Families,
			},
		})
	}
	r.storeErr(storeWriteText(r.taskDir, records.TaskTextFile, r.opts.Task+"\n", r.Redact))
}

// finish emits session.complete, writes session-complete.json and fills the
// report's totals.
func (r *runner) finish(ctx context.Context, outcome string, runErr error) {
	r.report.Outcome = outcome
	r.finishIsolation(ctx, outcome)
	if runErr != nil {
		r.report.Error = runErr.Error()
	}
	complete := events.SessionComplete{
		TaskID:          r.taskID,
		Outcome:         outcome,
		IterationsUsed:  events.Ptr(len(r.report.Iterations)),
		TotalDurationMS: events.Ptr(r.elapsedMS()),
	}
	if n := len(r.report.Iterations); n > 0 && r.report.Iterations[n-1].Consensus != nil {
		a := r.report.Iterations[n-1].Consensus.Aggregate
		complete.FinalScore = events.Ptr(a)
		r.report.FinalScore = events.Ptr(a)
	}
	r.costMu.Lock()
	if r.costSeen {
		// Summing binary floats leaves noise such as 0.060000000000000005;
		// no call reports a cost finer than 1e-10 dollars.
		total := math.Round(r.cost*1e10) / 1e10
		complete.TotalCostUSD = events.Ptr(total)
		r.report.CostUSD = events.Ptr(total)
	}
	r.costMu.Unlock()
	r.report.DurationMS = int64(r.elapsedMS())
	r.emit(complete)
	r.write(records.SessionCompleteFile, records.Complete{SessionComplete: complete, Error: r.report.Error})
	r.write(records.ReportFile, r.report)
	r.storeErr(storeWriteText(r.taskDir, records.SummaryFile, Summary(r.report), r.Redact))
	if r.lostEvents > 1 {
		r.Warn(fmt.Sprintf("%d events in all were not recorded; the first failed with: %v", r.lostEvents, r.firstEventErr))
	}
	if r.lostFiles > 1 {
		r.Warn(fmt.Sprintf("%d artifacts in all were not written; the first failed with: %v", r.lostFiles, r.firstFileErr))
	}
	// The last line names the record as the first did: a review or an
	// answer is not a task, and `show` lists it under its own kind.
	noun := "task"
	switch r.kind() {
	case records.KindReview:
		noun = "review"
	case records.KindAnswer:
		noun = "answer"
	}
	switch {
	case errors.Is(runErr, ErrInterrupted):
		r.progress("%s %s: interrupted; recorded as aborted", noun, r.taskID)
	case outcome == Accepted:
		r.progress("%s %s: accepted", noun, r.taskID)
	default:
		r.progress("%s %s: %s", noun, r.taskID, rules.OutcomeWords(outcome))
	}
}

// recordParams is the parameters as the task manifest keeps them,
// durations in seconds as they are configured.
func recordParams(p config.Params) records.Params {
	judgeTypes := p.JudgeTypes
	if judgeTypes == nil {
		judgeTypes = []json.RawMessage{}
	}
	return records.Params{
		ScoreThreshold: &p.ScoreThreshold, MaxIterations: p.MaxIterations,
		GatePolicy: p.GatePolicy, AggregationMethod: p.AggregationMethod, JudgeTypes: judgeTypes,
		DissentThreshold: &p.DissentThreshold, MinCriterionCoverage: &p.MinCriterionCoverage,
		ActorModel: p.ActorModel, MetaModel: p.MetaModel,
		ActorMaxTokens: p.ActorMaxTokens, JudgeMaxTokens: p.JudgeMaxTokens, MetaMaxTokens: p.MetaMaxTokens,
		JudgeTimeout: p.JudgeTimeout.Seconds(), ActorTimeout: p.ActorTimeout.Seconds(), MetaTimeout: p.MetaTimeout.Seconds(),
		BudgetUSD: p.BudgetUSD,
	}
}

// eventPolicy is the gate policy as the event schema can carry it: one of
// its four values, or nothing for a quorum (any, at_least_<n>), which the
// manifest's effective.params and the ledger record.
func eventPolicy(p rules.Policy) rules.Policy {
	if p.Canonical() {
		return p
	}
	return ""
}
