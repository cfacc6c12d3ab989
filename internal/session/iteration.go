package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/aggregate"
	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/gate"
	"github.com/tribunal-cc/tribunal/internal/gitstate"
	"github.com/tribunal-cc/tribunal/internal/jury"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/provider"
	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/trust"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Turn limits per role. The actor edits and runs commands, so it needs
// room; judges read files; the meta-judge mostly reads its prompt.
const (
	actorMaxTurns = 200
	judgeMaxTurns = 60
	metaMaxTurns  = 20
	diffStatBytes = 4000
)

// iterationState is what one iteration leaves for the next one and for the
// report.
type iterationState struct {
	report      IterationReport
	verdicts    []verdict.Verdict
	meta        verdict.Meta
	gate        gate.Result
	aggregate   float64
	dissent     float64
	recorded    bool // dissent.recorded was emitted
	actorOutput string
	// diff is the task's change relative to the starting snapshot after
	// this iteration's actor pass ("" in place, or when nothing changed).
	diff string
	// calls numbers this iteration's model calls for their records.
	calls int
	// Beyond tribunal 1.2.7 (docs/adr/007).
	trustItems []trust.Item
	trust      *trust.Result
	findings   []severity.Finding
	worst      severity.Level
	commands   []records.Command
}

// iteration runs spec §7.4 for iteration n. A returned error aborts the task;
// a nil error with a blocked gate means "retry or exhaust".
func (r *runner) iteration(ctx context.Context, n int) (*iterationState, error) {
	iterID, err := r.newID()
	if err != nil {
		return nil, err
	}
	it := &iterationState{report: IterationReport{Number: n, IterationID: iterID}}
	start := r.Now()
	defer func() { it.report.DurationMS = int(r.Now().Sub(start) / time.Millisecond) }()
	dir := records.IterationDir(iterID)
	trigger := "initial"
	if n > 0 {
		trigger = "gate_blocked"
	}
	r.emit(events.IterationStart{TaskID: r.taskID, IterationID: iterID, IterationNumber: n, Trigger: trigger})
	label := fmt.Sprintf("[%d/%d]", n+1, r.params.MaxIterations)

	// Actor.
	output, err := r.runActor(ctx, it, dir, label)
	if err != nil {
		return it, err
	}
	it.actorOutput = output
	return it, r.judge(ctx, it, dir, label, n)
}

// judge is spec §7.4 steps 3–7 for one iteration whose work is done: jury,
// consensus, dissent, meta-judge and gate. The loop calls it after the
// actor; JudgeDiff calls it on recorded or labelled work with no actor.
func (r *runner) judge(ctx context.Context, it *iterationState, dir, label string, n int) error {
	iterID := it.report.IterationID
	output := it.actorOutput
	seats, err := jury.Empanel(r.params.JudgeTypes, r.seatModel, r.newID, func(string) {})
	if err != nil {
		return err
	}
	r.write(filepath.Join(dir, records.JuryFile), seats)
	members := make([]events.JuryMember, len(seats))
	for i, s := range seats {
		members[i] = events.JuryMember{JudgeID: s.JudgeID, JudgeType: s.JudgeType, ModelID: s.Model}
	}
	r.emit(events.JuryEmpaneled{TaskID: r.taskID, IterationID: iterID, Judges: members, PanelSize: events.Ptr(len(seats))})

	verdicts, err := r.runJudges(ctx, it, dir, label, seats, output)
	if err != nil {
		return err
	}
	if c := refusedCommand(it.report.Refused); c != nil {
		it.report.Commands = append(it.report.Commands, *c)
		it.commands = append(it.commands, *c)
	}
	it.verdicts = verdicts
	// Failure is not a verdict: with no usable score from any seat there
	// is nothing to aggregate, nothing for the meta-judge to review and no
	// critique to retry with. The task stops here rather than reading as
	// "your change is bad".
	if err := noVerdict(verdicts); err != nil {
		it.report.Gate = GateReport{Reason: "no_usable_verdict"}
		r.progress("%s %v; aborting (no actor retry, no meta-judge)", label, err)
		return err
	}

	r.consensus(it, dir, verdicts)

	// Meta-Judge.
	if err := r.runMeta(ctx, it, dir, label); err != nil {
		return err
	}

	// Gate.
	res := gate.DecideWithChecks(gate.Input{
		Policy: r.params.GatePolicy, Verdicts: verdicts, Aggregate: it.aggregate,
		Threshold: r.params.ScoreThreshold, Meta: it.meta, Dissent: it.dissent,
		DissentThreshold: r.params.DissentThreshold, Rubric: r.rub,
	}, r.checks(it))
	r.warnAll(res.Warnings)
	it.gate = res
	r.recordGate(it, dir, n)
	return nil
}

// consensus is spec §7.4 step 4: the aggregate score and the dissent of
// the panel's usable verdicts, recorded as events and artifacts.
func (r *runner) consensus(it *iterationState, dir string, verdicts []verdict.Verdict) {
	iterID := it.report.IterationID
	var warns []string
	it.aggregate, warns = aggregate.Score(r.params.AggregationMethod, verdicts, r.rub, r.params.MinCriterionCoverage)
	r.warnAll(warns)
	it.dissent, warns = aggregate.Disagreement(verdicts)
	r.warnAll(warns)
	consensus := events.ConsensusReached{
		TaskID: r.taskID, IterationID: iterID, AggregatedScore: it.aggregate,
		Passed:            gate.ConsensusPassed(it.aggregate, r.params.ScoreThreshold),
		AggregationMethod: r.params.AggregationMethod,
		Judges:            []events.ConsensusJudge{},
	}
	for _, v := range verdicts {
		if s, ok := v.UsableScore(); ok {
			consensus.Judges = append(consensus.Judges, events.ConsensusJudge{JudgeID: v.JudgeID, Score: s})
		}
	}
	r.emit(consensus)
	r.write(filepath.Join(dir, records.ConsensusFile), consensus)
	it.report.Consensus = &ConsensusReport{Aggregate: it.aggregate, Dissent: it.dissent, Method: r.params.AggregationMethod}
	if gate.DissentExceeds(it.dissent, r.params.DissentThreshold) {
		it.recorded = true
		it.report.Consensus.DissentRecorded = true
		dissent := events.DissentRecorded{TaskID: r.taskID, IterationID: iterID, DisagreementScore: it.dissent, Judges: []events.DissentJudge{}}
		for _, v := range verdicts {
			if s, ok := v.UsableScore(); ok {
				dissent.Judges = append(dissent.Judges, events.DissentJudge{JudgeID: v.JudgeID, Score: s, Passed: v.Passed})
			}
		}
		r.emit(dissent)
		r.write(filepath.Join(dir, records.DissentFile), dissent)
	}
}

// warnAll passes on the warnings a decision package returned.
func (r *runner) warnAll(ws []string) {
	for _, w := range ws {
		r.Relay(w)
	}
}

// runActor runs the Actor, retrying a failed attempt once (spec §7.8).
func (r *runner) runActor(ctx context.Context, it *iterationState, dir, label string) (string, error) {
	iterID := it.report.IterationID
	n := it.report.Number
	r.emit(events.ActorStart{TaskID: r.taskID, IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel})
	agent, _ := prompts.Agent(prompts.ActorAgent)
	prompt := prompts.ActorPrompt(prompts.ActorInput{Task: r.opts.Task, Criteria: r.criteria(), Digest: r.digest()})
	before := ""
	if r.task == nil {
		before = r.treeFingerprint(ctx)
	}
	start := r.Now()
	var (
		res     claude.Result
		lastErr error
	)
	for attempt := 1; attempt <= 2; attempt++ {
		if err := r.budgetAllows("actor", 1); err != nil {
			lastErr = err
			break
		}
		r.progress("%s actor working (%s)…", label, modelName(r.params.ActorModel))
		stop := r.longPhase(label, "waiting for the actor")
		call := r.actorCall(prompt, agent)
		seq := it.nextCall()
		res, lastErr = r.Claude.Run(ctx, call)
		stop()
		r.recordCall(dir, seq, "actor", provider.Spec{}, records.CallMeta{Role: "actor", Attempt: attempt}, call, res, lastErr)
		r.addCost("actor", res)
		if lastErr == nil && strings.TrimSpace(res.Text) == "" {
			lastErr = errors.New("the actor returned no final message")
		}
		if lastErr == nil || ctx.Err() != nil || isBudget(lastErr) {
			break
		}
		r.progress("%s actor failed (%v)%s", label, lastErr, map[bool]string{true: "; retrying once", false: ""}[attempt == 1])
	}
	duration := int(r.Now().Sub(start) / time.Millisecond)
	done := events.ActorComplete{
		TaskID: r.taskID, Success: lastErr == nil, DurationMS: events.Ptr(duration),
		IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel,
	}
	it.report.Actor = ActorReport{DurationMS: duration, CostUSD: res.CostUSD}
	if lastErr != nil {
		r.emit(done, costOpts(res)...)
		it.report.Actor.Error = lastErr.Error()
		if ctx.Err() != nil {
			return "", fmt.Errorf("%w during the actor", ErrInterrupted)
		}
		if isBudget(lastErr) {
			return "", lastErr
		}
		return "", fmt.Errorf("the actor failed twice: %w", lastErr)
	}
	done.ArtifactKind = "message"
	if r.task != nil {
		diff, changed, err := r.recordChange(ctx, it, dir)
		if err != nil {
			it.report.Actor.Error = err.Error()
			r.emit(events.ActorComplete{TaskID: r.taskID, Success: false, DurationMS: events.Ptr(duration),
				IterationID: iterID, IterationNumber: events.Ptr(n), ActorModelID: r.params.ActorModel}, costOpts(res)...)
			return "", fmt.Errorf("recording the actor's change: %w", err)
		}
		it.diff = diff
		if changed {
			done.ArtifactKind = "patch"
		}
	} else if after := r.treeFingerprint(ctx); before != "" && after != "" && before != after {
		done.ArtifactKind = "patch"
	}
	it.report.Actor.ArtifactKind = done.ArtifactKind
	r.storeErr(storeWriteText(r.taskDir, filepath.Join(dir, records.ActorFile), res.Text+"\n", r.Redact))
	r.emit(done, costOpts(res)...)
	r.progress("%s actor done in %s (%s)", label, time.Duration(duration)*time.Millisecond, done.ArtifactKind)
	return res.Text, nil
}

// actorCall is the actor's model call: it edits the work directory
// without asking, within the actor's turn, token and time limits.
func (r *runner) actorCall(prompt string, agent prompts.AgentDef) claude.Call {
	return claude.Call{
		Role: "actor", Prompt: prompt, SystemPrompt: agent.Body,
		SystemPromptMode: claude.AppendSystemPrompt, Model: r.params.ActorModel,
		Tools: agent.Tools, AllowedTools: agent.Tools, PermissionMode: "acceptEdits",
		MaxTurns: actorMaxTurns, MaxOutputTokens: r.params.ActorMaxTokens,
		Dir: r.workDir, Timeout: r.params.ActorTimeout,
	}
}

// treeFingerprint identifies the working tree's state, to tell whether the
// actor changed files ("patch") or only answered ("message"). "" when git
// cannot say.
func (r *runner) treeFingerprint(ctx context.Context) string {
	st, err := gitstate.Status(ctx, r.Git, r.repo.WorktreeRoot)
	if err != nil {
		return ""
	}
	fp, err := gitstate.Fingerprint(ctx, r.Git, r.repo.WorktreeRoot, st)
	if err != nil {
		return ""
	}
	return fp
}

func modelName(m string) string {
	if m == "" {
		return "default model"
	}
	return m
}

func costOpts(res claude.Result) []events.Option {
	var opts []events.Option
	if res.CostUSD != nil {
		opts = append(opts, events.WithCost(*res.CostUSD))
	}
	if res.Tokens != nil {
		opts = append(opts, events.WithTokens(*res.Tokens))
	}
	return opts
}

// criteria is the rubric's criteria as the prompts show them.
func (r *runner) criteria() []prompts.Criterion {
	var out []prompts.Criterion
	if r.rub == nil {
		return out
	}
	for _, c := range r.rub.Criteria {
		pc := prompts.Criterion{Name: c.Name}
		if c.Weight != nil {
			pc.Weight = *c.Weight
		}
		if c.MinPass != nil {
			pc.MinPass = *c.MinPass
		}
		out = append(out, pc)
	}
	return out
}

func (r *runner) criterionNames() []string {
	var names []string
	for _, c := range r.criteria() {
		names = append(names, c.Name)
	}
	return names
}

// checks gathers tribunal's additional gate checks for this iteration:
// required command judges, the severity policy, and the trust gate over
// the reps of this iteration and of the whole task so far.
func (r *runner) checks(it *iterationState) gate.Checks {
	var all []trust.Item
	for _, h := range r.history {
		all = append(all, h.trustItems...)
	}
	all = append(all, it.trustItems...)
	ts := r.cfg.Trust()
	res := trust.Check(it.trustItems, all, ts.Thresholds)
	it.trust = &res
	c := gate.Checks{Worst: it.worst, FailAt: r.failAt, Trust: &res, TrustBlocks: ts.Block}
	for _, cmd := range it.commands {
		if cmd.Required {
			c.Commands = append(c.Commands, gate.CommandResult{Name: cmd.Name, Passed: cmd.Passed})
		}
	}
	return c
}
