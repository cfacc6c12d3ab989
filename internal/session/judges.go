package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/gitstate"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// runJudges runs every seat in parallel. Events are ordered
// deterministically whatever order the judges finish in (§12.2): every
// judge.start in panel order as the judges launch, then every verdict in
// panel order once the whole panel has answered.
func (r *runner) runJudges(ctx context.Context, it *iterationState, dir, label string, seats []jury.Seat, output string) ([]verdict.Verdict, error) {
	iterID := it.report.IterationID
	if err := r.budgetAllows("judge", len(seats)); err != nil {
		return nil, err
	}
	diff, _ := gitstate.DiffStat(ctx, r.Git, r.repo.WorktreeRoot, diffStatBytes)
	schema := prompts.VerdictSchema(r.criterionNames())
	results := make([]claude.Result, len(seats))
	errs := make([]error, len(seats))
	var wg sync.WaitGroup
	types := make([]string, len(seats))
	for i, s := range seats {
		types[i] = s.JudgeType
		r.emit(events.JudgeStart{TaskID: r.taskID, IterationID: iterID, JudgeID: s.JudgeID, JudgeType: s.JudgeType, JudgeModelID: s.Model})
		agent, ok := prompts.Agent(s.Agent)
		if !ok {
			errs[i] = fmt.Errorf("no agent prompt named %q", s.Agent)
			continue
		}
		call := claude.Call{
			Role: "judge",
			Prompt: prompts.JudgePrompt(prompts.JudgeInput{
				Task: r.opts.Task, Criteria: r.criteria(), ActorOutput: output,
				Threshold: r.params.ScoreThreshold, JudgeType: s.JudgeType,
				Iteration: it.report.Number, DiffStat: diff,
			}),
			SystemPrompt: agent.Body, Model: s.Model, JSONSchema: schema,
			Tools: agent.Tools, AllowedTools: agent.Tools,
			MaxTurns: judgeMaxTurns, MaxOutputTokens: r.params.JudgeMaxTokens,
			Dir: r.repo.WorktreeRoot, Timeout: r.params.JudgeTimeout,
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], errs[i] = r.Claude.Run(ctx, call)
			r.addCost("judge", results[i])
		}(i)
	}
	r.progress("%s %d judge(s) reviewing in parallel: %s", label, len(seats), strings.Join(types, ", "))
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w while the jury deliberated", ErrInterrupted)
	}

	verdicts := make([]verdict.Verdict, len(seats))
	var notes []string
	for i, s := range seats {
		v := r.judgeVerdict(results[i], errs[i])
		v.JudgeID, v.JudgeType, v.JudgeModelID = s.JudgeID, s.JudgeType, s.Model
		v.TaskID, v.IterationID = r.taskID, iterID
		verdicts[i] = v
		if v.Emittable() {
			score, _ := v.UsableScore()
			ev := events.Verdict{
				TaskID: r.taskID, Score: score, Passed: v.Passed, JudgeType: s.JudgeType,
				FeedbackSummary: v.FeedbackSummary, FilePath: v.FilePath, IterationID: iterID,
				JudgeID: s.JudgeID, JudgeModelID: s.Model, CriteriaEvaluated: v.CriteriaEvaluated,
				CriterionScores: v.ReadableCriterionScores(), StrengthsCount: v.StrengthsCount,
				WeaknessesCount: v.WeaknessesCount, Confidence: v.Confidence,
			}
			r.emit(ev, costOpts(results[i])...)
		}
		r.write(filepath.Join(dir, "verdicts", s.JudgeID+".json"), v)
		jr := JudgeReport{
			JudgeID: s.JudgeID, Type: s.JudgeType, Model: s.Model, Passed: v.Passed,
			Failed: v.Failed, Error: v.Error, Feedback: v.FeedbackSummary,
			CriterionScores: v.ReadableCriterionScores(), CostUSD: results[i].CostUSD,
		}
		if score, ok := v.UsableScore(); ok {
			jr.Score = events.Ptr(score)
			notes = append(notes, fmt.Sprintf("%s %.2f %s", s.JudgeType, score, mark(v.Passed)))
		} else {
			notes = append(notes, fmt.Sprintf("%s %s", s.JudgeType, failure(v)))
		}
		it.report.Judges = append(it.report.Judges, jr)
	}
	r.progress("%s verdicts: %s", label, strings.Join(notes, "; "))
	return verdicts, nil
}

// judgeVerdict turns one judge call into a verdict: a failed call is a
// failed judge (§4.1), never a zero.
func (r *runner) judgeVerdict(res claude.Result, err error) verdict.Verdict {
	if err != nil {
		return verdict.Failed(err.Error())
	}
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	}
	v, warns := verdict.NormaliseJudge(text, r.params.ScoreThreshold)
	r.warnAll(warns)
	return v
}

func mark(passed bool) string {
	if passed {
		return "✓"
	}
	return "✗"
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return truncateUTF8(s, n)
}

// failure describes a verdict without a usable score.
func failure(v verdict.Verdict) string {
	if v.Failed {
		return "failed (" + firstLine(v.Error, 120) + ")"
	}
	return "gave no usable score"
}
