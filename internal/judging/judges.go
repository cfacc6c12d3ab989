package judging

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/judging/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/jury"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
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

// commandRun is one command judge's run in this round.
type commandRun struct {
	judge   cmdjudge.Judge
	verdict verdict.Verdict
}

// panel is one round's seats and the calls planned for them.
type panel struct {
	seats   []jury.Seat
	reps    []int
	calls   []*repCall
	seatErr []error
	bash    []string
	types   []string // progress names, "standard ×3", "command:tests"
}

// runJudges runs every seat's reps and every command judge in parallel.
// Events are ordered deterministically whatever order the calls finish in
// (spec §B.2): every judge.start in panel order as the judges launch, then
// every verdict in panel order once the whole panel has answered. A seat
// with several reps is one seat: its reps are reduced by the mean over
// survivors (internal/trust) and only the reduced verdict is an event.
func (r *round) runJudges(ctx context.Context, seats []jury.Seat) ([]verdict.Verdict, error) {
	p := &panel{seats: seats, reps: make([]int, len(seats)), seatErr: make([]error, len(seats)), bash: make([]string, len(seats))}
	total := 0
	for i, s := range seats {
		p.reps[i] = r.cfg.Reps(s.JudgeType)
		total += p.reps[i]
	}
	if err := r.rec.Budget("judge", total); err != nil {
		return nil, err
	}
	r.planCalls(p)
	var wg sync.WaitGroup
	r.startCalls(ctx, p, &wg)
	commands := r.startCommands(ctx, p, &wg)
	label := r.in.Label
	r.progress("%s %d judge(s) reviewing in parallel: %s", label, len(p.types), strings.Join(p.types, ", "))
	stop := r.rec.LongPhase(label, "waiting for the jury")
	wg.Wait()
	stop()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w while the jury deliberated", ErrInterrupted)
	}
	verdicts, notes := r.seatVerdicts(p)
	notes = append(notes, r.recordCommands(commands)...)
	notes = append(notes, r.runEvaluators(ctx)...)
	if r.in.Keep != nil {
		r.it.Findings = r.in.Keep(r.it.Findings)
	}
	r.verifyFindings(ctx)
	for _, f := range r.it.Findings {
		if f.Unverified {
			r.it.Report.UnverifiedFindings++
		}
	}
	if worst, ok := severity.WorstOf(r.it.Findings); ok {
		r.it.Worst = worst
		r.it.Report.WorstSeverity = worst.String()
	}
	r.progress("%s verdicts: %s", label, strings.Join(notes, "; "))
	return verdicts, nil
}

// planCalls emits each seat's judge.start and plans its reps' calls: the
// judges see the change itself (bounded) when it is isolated, else the
// working tree's diff stat.
func (r *round) planCalls(p *panel) {
	schema := prompts.VerdictSchema(r.criterionNames())
	for i, s := range p.seats {
		p.types = append(p.types, s.JudgeType+repSuffix(p.reps[i]))
		r.emit(events.JudgeStart{TaskID: r.in.TaskID, IterationID: r.it.Report.IterationID, JudgeID: s.JudgeID, JudgeType: s.JudgeType, JudgeModelID: s.Model})
		agent, ok := prompts.Agent(s.Agent)
		if !ok {
			p.seatErr[i] = fmt.Errorf("no agent prompt named %q", s.Agent)
			continue
		}
		prompt := prompts.JudgePrompt(prompts.JudgeInput{
			Task: r.in.Task, Criteria: r.Criteria(), ActorOutput: r.in.ActorOutput,
			Threshold: r.params.ScoreThreshold, JudgeType: s.JudgeType,
			Iteration: r.it.Report.Number, DiffStat: r.in.DiffStat, Diff: r.in.Diff, Isolated: r.in.Isolated,
			Dismissed: prompts.DismissedOf(r.in.Dismissals.Mentioned(prompts.MaxDismissed, r.in.Diff, r.in.DiffStat)), Answer: r.in.Answer,
			Directives: r.Directives(),
		})
		tools := agent.Tools
		if r.in.Answer != nil {
			// The whole case is in the prompt: nothing on disk to read.
			tools = []string{}
		}
		for k := 0; k < p.reps[i]; k++ {
			model := s.Model
			if p.reps[i] > 1 || k > 0 {
				model = r.repModel(s.JudgeType, k)
			}
			call, bash := r.confineBash(s.JudgeType, claude.Call{
				Role: "judge", Prompt: prompt, SystemPrompt: agent.Body, Model: model,
				JSONSchema: schema, Tools: tools, AllowedTools: claude.NeedApproval(tools), StrictMCP: true,
				MaxTurns: judgeMaxTurns, MaxOutputTokens: r.params.JudgeMaxTokens,
				Dir: r.in.Dir, Timeout: r.params.JudgeTimeout,
			})
			p.bash[i] = bash
			p.calls = append(p.calls, &repCall{seat: i, rep: k, model: model, seq: r.it.NextCall(), call: call, bash: bash})
		}
	}
}

// startCalls runs every planned call in its own goroutine, recording each
// call's evidence as it finishes.
func (r *round) startCalls(ctx context.Context, p *panel, wg *sync.WaitGroup) {
	for _, c := range p.calls {
		wg.Add(1)
		go func(c *repCall) {
			defer wg.Done()
			s := p.seats[c.seat]
			c.res, c.err = r.seatRunner(s.JudgeType).Run(ctx, c.call)
			r.rec.AddCost("judge", c.res)
			label, rep := "judge-"+s.JudgeType, (*int)(nil)
			if p.reps[c.seat] > 1 {
				label += "-rep" + strconv.Itoa(c.rep)
				rep = &c.rep
			}
			r.recordCall(c.seq, label, r.prov.judges[s.JudgeType], records.CallMeta{Role: "judge", JudgeID: s.JudgeID, JudgeType: s.JudgeType, Rep: rep, Bash: c.bash}, c.call, c.res, c.err)
		}(c)
	}
}

// startCommands runs every command judge in the change's directory.
func (r *round) startCommands(ctx context.Context, p *panel, wg *sync.WaitGroup) []commandRun {
	commands := make([]commandRun, len(r.in.Commands))
	for i, cj := range r.in.Commands {
		cj.Spec.Dir = r.in.Dir
		commands[i].judge = cj
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			commands[i].verdict = cmdjudge.Run(ctx, commands[i].judge.Spec)
		}(i)
		p.types = append(p.types, "command:"+cj.Spec.Name)
	}
	return commands
}

// seatVerdicts normalises each rep, keeps its findings, reduces each
// seat's reps to one verdict and records it; it returns the verdicts in
// panel order and one progress note per seat.
func (r *round) seatVerdicts(p *panel) ([]verdict.Verdict, []string) {
	repVerdicts := make([][]verdict.Verdict, len(p.seats))
	for _, c := range p.calls {
		s := p.seats[c.seat]
		v, findings := r.judgeVerdict(c.res, c.err)
		if !v.Failed && suspect(r.prov.judges[s.JudgeType], c.res, c.err) {
			// A stub's answer is no verdict: its score and its findings
			// stay out of the gate (spec §4.8). An answer that already
			// failed stays that failure.
			v, findings = suspectVerdict(), nil
		}
		findings = severity.MarkUnverified(findings, locator(r.in.Dir))
		for k := range findings {
			// A review's outputs name the judge of each finding.
			findings[k].Judge = s.JudgeType
		}
		v.JudgeType, v.JudgeModelID = s.JudgeType, c.model
		repVerdicts[c.seat] = append(repVerdicts[c.seat], v)
		r.it.Findings = append(r.it.Findings, findings...)
		if p.reps[c.seat] > 1 {
			v.JudgeID, v.TaskID, v.IterationID = s.JudgeID, r.in.TaskID, r.it.Report.IterationID
			r.write(records.RepPath(r.in.ArtifactDir, s.JudgeID, c.rep), v)
		}
	}
	verdicts := make([]verdict.Verdict, len(p.seats))
	var notes []string
	for i, s := range p.seats {
		var v verdict.Verdict
		if p.seatErr[i] != nil {
			v = verdict.Failed(p.seatErr[i].Error())
		} else {
			v = trust.Reduce(repVerdicts[i])
			if v.Failed && allSuspect(repVerdicts[i]) {
				v.Suspect = true
			}
		}
		v.JudgeID, v.JudgeType, v.JudgeModelID = s.JudgeID, s.JudgeType, s.Model
		info := r.seatInfo(s.JudgeType)
		v.JudgeProvider, v.JudgeFamily = info.Provider, info.Family
		v.TaskID, v.IterationID = r.in.TaskID, r.it.Report.IterationID
		verdicts[i] = v
		r.it.TrustItems = append(r.it.TrustItems, trust.ItemFrom(s.JudgeType+"@"+strconv.Itoa(r.it.Report.Number), repVerdicts[i]))
		notes = append(notes, r.recordSeat(p, i, v))
	}
	return verdicts, notes
}

// recordSeat emits seat i's verdict, writes it, adds it to the report and
// returns its progress note.
func (r *round) recordSeat(p *panel, i int, v verdict.Verdict) string {
	s := p.seats[i]
	var cost *float64
	for _, c := range p.calls {
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
			TaskID: r.in.TaskID, Score: score, Passed: v.Passed, JudgeType: s.JudgeType,
			FeedbackSummary: v.FeedbackSummary, FilePath: v.FilePath, IterationID: r.it.Report.IterationID,
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
	r.write(records.VerdictPath(r.in.ArtifactDir, s.JudgeID), v)
	jr := JudgeReport{
		JudgeID: s.JudgeID, Type: s.JudgeType, Model: s.Model, Passed: v.Passed,
		Failed: v.Failed, Error: v.Error, Feedback: v.FeedbackSummary,
		CriterionScores: v.ReadableCriterionScores(), CostUSD: cost, Reps: p.reps[i],
		Provider: v.JudgeProvider, Family: v.JudgeFamily, Bash: p.bash[i], Suspect: v.Suspect,
	}
	name := SeatLabel(s.JudgeType, v.JudgeProvider)
	note := fmt.Sprintf("%s %s", name, failure(v))
	if score, ok := v.UsableScore(); ok {
		jr.Score = events.Ptr(score)
		note = fmt.Sprintf("%s %.2f %s", name, score, Mark(v.Passed))
	}
	r.it.Report.Judges = append(r.it.Report.Judges, jr)
	return note
}

// recordCommands writes each command judge's verdict, adds it to the
// round and returns its progress notes.
func (r *round) recordCommands(commands []commandRun) []string {
	var notes []string
	for _, c := range commands {
		v := c.verdict
		r.write(records.CommandVerdictPath(r.in.ArtifactDir, c.judge.Spec.Name), v)
		cr := records.Command{Name: c.judge.Spec.Name, Required: c.judge.Required, Passed: v.Passed && !v.Failed, Failed: v.Failed, Error: v.Error, Feedback: v.FeedbackSummary}
		r.it.Report.Commands = append(r.it.Report.Commands, cr)
		r.it.Commands = append(r.it.Commands, cr)
		state := "passed"
		if !cr.Passed {
			state = "failed"
		}
		notes = append(notes, "command:"+cr.Name+" "+state)
	}
	return notes
}

// runEvaluators runs the rubric's evaluators over the change (spec
// §2.11): each result sits beside the command judges', and its findings
// join the judges' before dismissals and the severity check weigh them.
func (r *round) runEvaluators(ctx context.Context) []string {
	var notes []string
	results := append(append([]evaluator.Result{}, r.in.Checks...), r.evals.Run(ctx, evaluator.Change{Files: r.in.Files, Dir: r.in.Dir, ActorOutput: r.in.ActorOutput})...)
	for _, e := range results {
		cr := records.Command{Name: e.Name, Kind: records.KindEvaluator, Severity: e.Severity.String(),
			Required: e.Required, Passed: e.Passed, Feedback: e.Summary}
		r.it.Report.Commands = append(r.it.Report.Commands, cr)
		r.it.Commands = append(r.it.Commands, cr)
		r.it.Findings = append(r.it.Findings, e.Findings...)
		state := "passed"
		if !e.Passed {
			state = "failed"
		}
		notes = append(notes, cr.Label()+" "+state)
	}
	return notes
}

func repSuffix(n int) string {
	if n > 1 {
		return fmt.Sprintf(" ×%d", n)
	}
	return ""
}

// judgeVerdict turns one judge call into a verdict and its findings: a
// failed call is a failed judge (spec §4.1), never a zero.
func (j *Jury) judgeVerdict(res claude.Result, err error) (verdict.Verdict, []severity.Finding) {
	if err != nil {
		return verdict.Failed(err.Error()), nil
	}
	text := res.Text
	if res.Structured != nil {
		text = string(res.Structured)
	}
	v, warns := verdict.NormaliseJudge(text, j.params.ScoreThreshold)
	j.warnAll(warns)
	var findings []severity.Finding
	if !v.Failed {
		if raw, err := verdict.ParseOutput(text); err == nil {
			findings, warns = severity.FromVerdictJSON(raw)
			j.warnAll(warns)
		}
	}
	return v, findings
}

// Mark is a pass or fail as the summaries show it.
func Mark(passed bool) string {
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
