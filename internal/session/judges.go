package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/gitstate"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/trust"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// repCall is one model call of one seat.
type repCall struct {
	seat  int
	rep   int
	model string
	seq   int
	call  claude.Call
	bash  string // the seat's Bash state (confineBash)
	res   claude.Result
	err   error
}

// commandRun is one command judge's run in this iteration.
type commandRun struct {
	judge   cmdjudge.Judge
	verdict verdict.Verdict
}

// runJudges runs every seat's reps and every command judge in parallel.
// Events are ordered deterministically whatever order the calls finish in
// (spec §B.2): every judge.start in panel order as the judges launch, then
// every verdict in panel order once the whole panel has answered. A seat
// with several reps is one seat: its reps are reduced by the mean over
// survivors (internal/trust) and only the reduced verdict is an event.
func (r *runner) runJudges(ctx context.Context, it *iterationState, dir, label string, seats []jury.Seat, output string) ([]verdict.Verdict, error) {
	iterID := it.report.IterationID
	var calls []*repCall
	reps := make([]int, len(seats))
	for i, s := range seats {
		reps[i] = r.cfg.Reps(s.JudgeType)
	}
	total := 0
	for _, n := range reps {
		total += n
	}
	if err := r.budgetAllows("judge", total); err != nil {
		return nil, err
	}
	// Isolated, the judges see the task's own change (bounded); in place,
	// today's diff stat of the whole tree. A shadow jury (JudgeDiff) sees
	// the work's change the way an isolated task's judges do.
	var diffStat, diff string
	isolated := r.task != nil || r.shadow || r.review
	switch {
	case r.shadow || r.review:
		diff = r.shadowDiff
	case r.task != nil:
		diff = boundedDiff(it.diff)
	default:
		diffStat, _ = gitstate.DiffStat(ctx, r.Git, r.repo.WorktreeRoot, diffStatBytes)
	}
	schema := prompts.VerdictSchema(r.criterionNames())
	seatErr := make([]error, len(seats))
	bashState := make([]string, len(seats))
	var types []string
	for i, s := range seats {
		types = append(types, s.JudgeType+repSuffix(reps[i]))
		r.emit(events.JudgeStart{TaskID: r.taskID, IterationID: iterID, JudgeID: s.JudgeID, JudgeType: s.JudgeType, JudgeModelID: s.Model})
		agent, ok := prompts.Agent(s.Agent)
		if !ok {
			seatErr[i] = fmt.Errorf("no agent prompt named %q", s.Agent)
			continue
		}
		prompt := prompts.JudgePrompt(prompts.JudgeInput{
			Task: r.opts.Task, Criteria: r.criteria(), ActorOutput: output,
			Threshold: r.params.ScoreThreshold, JudgeType: s.JudgeType,
			Iteration: it.report.Number, DiffStat: diffStat, Diff: diff, Isolated: isolated, Dismissed: r.promptDismissed(diffStat, diff),
		})
		for k := 0; k < reps[i]; k++ {
			model := s.Model
			if reps[i] > 1 || k > 0 {
				model = r.repModel(s.JudgeType, k)
			}
			call, bash := r.confineBash(s.JudgeType, claude.Call{
				Role: "judge", Prompt: prompt, SystemPrompt: agent.Body, Model: model,
				JSONSchema: schema, Tools: agent.Tools, AllowedTools: claude.NeedApproval(agent.Tools), StrictMCP: true,
				MaxTurns: judgeMaxTurns, MaxOutputTokens: r.params.JudgeMaxTokens,
				Dir: r.workDir, Timeout: r.params.JudgeTimeout,
			})
			bashState[i] = bash
			calls = append(calls, &repCall{seat: i, rep: k, model: model, seq: it.nextCall(), call: call, bash: bash})
		}
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func(c *repCall) {
			defer wg.Done()
			c.res, c.err = r.judgeRunner(seats[c.seat].JudgeType).Run(ctx, c.call)
			r.addCost("judge", c.res)
			s := seats[c.seat]
			label, rep := "judge-"+s.JudgeType, (*int)(nil)
			if reps[c.seat] > 1 {
				label += "-rep" + strconv.Itoa(c.rep)
				rep = &c.rep
			}
			r.recordCall(dir, c.seq, label, r.prov.judges[s.JudgeType], records.CallMeta{Role: "judge", JudgeID: s.JudgeID, JudgeType: s.JudgeType, Rep: rep, Bash: c.bash}, c.call, c.res, c.err)
		}(c)
	}
	commands := make([]commandRun, len(r.commands))
	for i, cj := range r.commands {
		cj.Spec.Dir = r.workDir
		commands[i].judge = cj
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			commands[i].verdict = cmdjudge.Run(ctx, commands[i].judge.Spec)
		}(i)
		types = append(types, "command:"+cj.Spec.Name)
	}
	r.progress("%s %d judge(s) reviewing in parallel: %s", label, len(types), strings.Join(types, ", "))
	stop := r.longPhase(label, "waiting for the jury")
	wg.Wait()
	stop()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w while the jury deliberated", ErrInterrupted)
	}

	// Per seat: normalise each rep, keep its findings, reduce.
	repVerdicts := make([][]verdict.Verdict, len(seats))
	for _, c := range calls {
		v, findings := r.judgeVerdict(c.res, c.err)
		findings = r.located(findings, seats[c.seat].JudgeType)
		v.JudgeType, v.JudgeModelID = seats[c.seat].JudgeType, c.model
		repVerdicts[c.seat] = append(repVerdicts[c.seat], v)
		it.findings = append(it.findings, findings...)
		if reps[c.seat] > 1 {
			v.JudgeID, v.TaskID, v.IterationID = seats[c.seat].JudgeID, r.taskID, iterID
			r.write(records.RepPath(dir, seats[c.seat].JudgeID, c.rep), v)
		}
	}
	verdicts := make([]verdict.Verdict, len(seats))
	var notes []string
	for i, s := range seats {
		var v verdict.Verdict
		switch {
		case seatErr[i] != nil:
			v = verdict.Failed(seatErr[i].Error())
		default:
			v = trust.Reduce(repVerdicts[i])
		}
		v.JudgeID, v.JudgeType, v.JudgeModelID = s.JudgeID, s.JudgeType, s.Model
		info := r.seatInfo(s.JudgeType)
		v.JudgeProvider, v.JudgeFamily = info.Provider, info.Family
		v.TaskID, v.IterationID = r.taskID, iterID
		verdicts[i] = v
		it.trustItems = append(it.trustItems, trust.ItemFrom(s.JudgeType+"@"+strconv.Itoa(it.report.Number), repVerdicts[i]))
		var cost *float64
		for _, c := range calls {
			if c.seat == i && c.res.CostUSD != nil {
				sum := *c.res.CostUSD
				if cost != nil {
					sum += *cost
				}
				cost = &sum
			}
		}
		if v.Emittable() {
			score, _ := v.UsableScore()
			ev := events.Verdict{
				TaskID: r.taskID, Score: score, Passed: v.Passed, JudgeType: s.JudgeType,
				FeedbackSummary: v.FeedbackSummary, FilePath: v.FilePath, IterationID: iterID,
				JudgeID: s.JudgeID, JudgeModelID: s.Model, CriteriaEvaluated: v.CriteriaEvaluated,
				CriterionScores: v.ReadableCriterionScores(), StrengthsCount: v.StrengthsCount,
				WeaknessesCount: v.WeaknessesCount, Confidence: v.Confidence,
			}
			var opts []events.Option
			if cost != nil {
				opts = append(opts, events.WithCost(*cost))
			}
			r.emit(ev, opts...)
		}
		r.write(records.VerdictPath(dir, s.JudgeID), v)
		jr := JudgeReport{
			JudgeID: s.JudgeID, Type: s.JudgeType, Model: s.Model, Passed: v.Passed,
			Failed: v.Failed, Error: v.Error, Feedback: v.FeedbackSummary,
			CriterionScores: v.ReadableCriterionScores(), CostUSD: cost, Reps: reps[i],
			Provider: info.Provider, Family: info.Family, Bash: bashState[i],
		}
		if score, ok := v.UsableScore(); ok {
			jr.Score = events.Ptr(score)
			notes = append(notes, fmt.Sprintf("%s %.2f %s", s.JudgeType, score, mark(v.Passed)))
		} else {
			notes = append(notes, fmt.Sprintf("%s %s", s.JudgeType, failure(v)))
		}
		it.report.Judges = append(it.report.Judges, jr)
	}
	for _, c := range commands {
		v := c.verdict
		r.write(records.CommandVerdictPath(dir, c.judge.Spec.Name), v)
		cr := records.Command{Name: c.judge.Spec.Name, Required: c.judge.Required, Passed: v.Passed && !v.Failed, Failed: v.Failed, Error: v.Error, Feedback: v.FeedbackSummary}
		it.report.Commands = append(it.report.Commands, cr)
		it.commands = append(it.commands, cr)
		state := "passed"
		if !cr.Passed {
			state = "failed"
		}
		notes = append(notes, "command:"+cr.Name+" "+state)
	}
	r.tally(it)
	r.progress("%s verdicts: %s", label, strings.Join(notes, "; "))
	return verdicts, nil
}

// located marks one judge's findings whose cited file or line is not in
// the judged tree and names the judge on each.
func (r *runner) located(findings []severity.Finding, judgeType string) []severity.Finding {
	findings = severity.MarkUnverified(findings, locator(r.workDir))
	for k := range findings {
		findings[k].Judge = judgeType
	}
	return findings
}

// tally drops the findings people dismissed (internal/dismiss),
// then counts the unverified ones and finds the worst verified one.
func (r *runner) tally(it *iterationState) {
	if r.dismiss != nil {
		it.findings = r.dismiss(it.findings)
	}
	for _, f := range it.findings {
		if f.Unverified {
			it.report.UnverifiedFindings++
		}
	}
	if worst, ok := severity.WorstOf(it.findings); ok {
		it.worst = worst
		it.report.WorstSeverity = worst.String()
	}
}

func repSuffix(n int) string {
	if n > 1 {
		return fmt.Sprintf(" ×%d", n)
	}
	return ""
}

// judgeVerdict turns one judge call into a verdict and its findings: a
// failed call is a failed judge (spec §4.1), never a zero.
func (r *runner) judgeVerdict(res claude.Result, err error) (verdict.Verdict, []severity.Finding) {
	if err != nil {
		return verdict.Failed(err.Error()), nil
	}
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	}
	v, warns := verdict.NormaliseJudge(text, r.params.ScoreThreshold)
	r.warnAll(warns)
	var findings []severity.Finding
	if !v.Failed {
		if raw, err := verdict.ParseOutput(text); err == nil {
			findings, warns = severity.FromVerdictJSON(raw)
			r.warnAll(warns)
		}
	}
	return v, findings
}

func mark(passed bool) string {
	if passed {
		return "✓"
	}
	return "✗"
}

// firstLine makes model- or tool-derived text one safe line of at most n
// bytes for progress lines and summaries.
func firstLine(s string, n int) string { return safetext.OneLine(s, n) }

// failure describes a verdict without a usable score.
func failure(v verdict.Verdict) string {
	if v.Failed {
		return "failed (" + firstLine(v.Error, 120) + ")"
	}
	return "gave no usable score"
}
