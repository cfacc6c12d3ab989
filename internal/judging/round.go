package judging

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"math"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/aggregate"
	"github.com/tribunal-cc/tribunal/internal/judging/cmdjudge"
	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/judging/jury"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/trust"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// Turn limits per role: judges read files; the meta-judge mostly reads
// its prompt.
const (
	judgeMaxTurns = 60
	metaMaxTurns  = 20
)

// Input is one change to judge and where its judging goes.
type Input struct {
	TaskID string
	// Task is what was asked; ActorOutput the final message that claims
	// it done (a neutral line when no actor worked).
	Task        string
	ActorOutput string
	// Dir holds the change: every judge and command judge runs there, and
	// findings are checked against its files.
	Dir string
	// Diff is the change as the judges see it (bounded, BoundedDiff),
	// with Isolated set; without Isolated, DiffStat is the working tree's
	// diff stat (a task run in place).
	Diff     string
	DiffStat string
	Isolated bool
	// ArtifactDir is the round's directory relative to the Recorder's
	// store (records.IterationDir), Label the progress lines' prefix.
	ArtifactDir string
	Label       string
	// Commands are the command judges that sit (none for work that is not
	// in Dir's working tree); Extra are command results decided before
	// the round (a refused file), counted like theirs.
	Commands []cmdjudge.Judge
	Extra    []records.Command
	// Files are the change, unbounded (internal/git/unidiff): what the
	// rubric's evaluators (spec §2.11) and the heuristic judge (§4.9)
	// read. Nil when the change is not known; the evaluators then see no
	// added line and a heuristic seat fails.
	Files []unidiff.File
	// History are the task's earlier rounds, oldest first: the
	// meta-judge, the bias probes and the trust gate read them.
	History []*Round
	// Keep, when set, filters the judges' findings before they are
	// counted and weighed by the gate (a review drops the findings people
	// dismissed).
	Keep func([]severity.Finding) []severity.Finding
	// Dismissals, when set, are the dismissed findings the judges are
	// told of (those on the files their material names, with reasons).
	Dismissals *dismiss.Set
	// Answer, when set, makes the round the judging of an answer
	// (ActorOutput) to a question instead of a change (spec §7.20): the
	// judges' prompt is the answer's, and they get no tools.
	Answer *prompts.AnswerCase
	// Checks are deterministic results decided before the round (an
	// answer's expected-answer, must_include and budget checks), recorded
	// and weighed by the gate as the rubric's evaluators are.
	Checks []evaluator.Result
}

// Recorder receives everything a round would keep or say. The loop's
// records a task's store (events, artifacts, the ledger); JudgeDiff's
// keeps nothing but the cost.
type Recorder interface {
	Emit(p events.Payload, opts ...events.Option)
	// Write stores v as JSON at rel inside the task's store.
	Write(rel string, v any)
	Progress(format string, args ...any)
	// LongPhase says "still <what>" now and then until stop is called.
	LongPhase(label, what string) (stop func())
	// Budget refuses calls that would take the task past its budget;
	// AddCost counts one call's cost.
	Budget(role string, calls int) error
	AddCost(role string, res claude.Result)
	// BashNote is told, on every such call, that a judge ran without Bash.
	BashNote(note string)
	// Ledger appends a gate decision to the project's signed ledger.
	Ledger(iterationID string, rec any)
	NewID() (string, error)
}

// Round is one round of judging: what the jury, the meta-judge and the
// gate made of a change, and what the task's next round reads of it.
type Round struct {
	Report          IterationReport
	Verdicts        []verdict.Verdict
	Meta            verdict.Meta
	Gate            gate.Result
	Aggregate       float64
	Dissent         float64
	DissentRecorded bool
	ActorOutput     string
	// Calls numbers the round's model calls for their records.
	Calls int
	// Beyond tribunal 1.2.7 (docs/adr/007).
	TrustItems []trust.Item
	Trust      *trust.Result
	Findings   []severity.Finding
	Worst      severity.Level
	Commands   []records.Command
}

// round is one Judge call's working state.
type round struct {
	*Jury
	in  Input
	it  *Round
	rec Recorder
}

func (r *round) emit(p events.Payload, opts ...events.Option) { r.rec.Emit(p, opts...) }
func (r *round) write(rel string, v any)                      { r.rec.Write(rel, v) }
func (r *round) progress(format string, args ...any)          { r.rec.Progress(format, args...) }

// Judge is spec §7.4 steps 3–7 for one change whose work is done: jury,
// consensus, dissent, meta-judge and gate, into it (whose Report.Number,
// Report.IterationID and ActorOutput the caller sets). A returned error
// ends the task: ErrNoVerdict when no seat produced a usable score,
// ErrInterrupted after a cancellation, or the Recorder's budget refusal.
func (j *Jury) Judge(ctx context.Context, in Input, it *Round, rec Recorder) error {
	r := &round{Jury: j, in: in, it: it, rec: rec}
	iterID, dir := it.Report.IterationID, in.ArtifactDir
	seats, err := jury.Empanel(r.params.JudgeTypes, r.seatModel, rec.NewID, func(string) {})
	if err != nil {
		return err
	}
	r.write(filepath.Join(dir, records.JuryFile), seats)
	members := make([]events.JuryMember, len(seats))
	for i, s := range seats {
		members[i] = events.JuryMember{JudgeID: s.JudgeID, JudgeType: s.JudgeType, ModelID: s.Model}
	}
	r.emit(events.JuryEmpaneled{TaskID: in.TaskID, IterationID: iterID, Judges: members, PanelSize: events.Ptr(len(seats))})

	verdicts, err := r.runJudges(ctx, seats)
	if err != nil {
		return err
	}
	it.Report.Commands = append(it.Report.Commands, in.Extra...)
	it.Commands = append(it.Commands, in.Extra...)
	it.Verdicts = verdicts
	// Failure is not a verdict: with no usable score from any seat there
	// is nothing to aggregate, nothing for the meta-judge to review and no
	// critique to retry with. The task stops here rather than reading as
	// "your change is bad".
	if err := noVerdict(verdicts); err != nil {
		it.Report.Gate = GateReport{Reason: "no_usable_verdict"}
		r.progress("%s %v; aborting (no actor retry, no meta-judge)", in.Label, err)
		return err
	}
	r.consensus(verdicts)
	if detail := MetaSkipDetail(r.cfg.MetaSkip(), r.params.GatePolicy, verdicts, it.Dissent, r.params.DissentThreshold); detail != "" {
		r.skipMeta(detail)
	} else if err := r.runMeta(ctx); err != nil {
		return err
	}
	gin := gate.Input{
		Policy: r.params.GatePolicy, Verdicts: verdicts, Aggregate: it.Aggregate,
		Threshold: r.params.ScoreThreshold, Meta: it.Meta, Dissent: it.Dissent,
		DissentThreshold: r.params.DissentThreshold, Rubric: r.rub,
	}
	res := gate.DecideWithChecks(gin, r.checks())
	r.warnAll(res.Warnings)
	it.Gate = res
	it.Report.PassedWithoutVerification = r.gateWithoutVerification(gin)
	r.recordGate()
	return nil
}

// consensus is spec §7.4 step 4: the aggregate score and the dissent of
// the panel's usable verdicts, recorded as events and artifacts.
func (r *round) consensus(verdicts []verdict.Verdict) {
	it, iterID, dir := r.it, r.it.Report.IterationID, r.in.ArtifactDir
	var warns []string
	it.Aggregate, warns = aggregate.Score(r.params.AggregationMethod, verdicts, r.rub, r.params.MinCriterionCoverage)
	r.warnAll(warns)
	it.Dissent, warns = aggregate.Disagreement(verdicts)
	r.warnAll(warns)
	consensus := events.ConsensusReached{
		TaskID: r.in.TaskID, IterationID: iterID, AggregatedScore: it.Aggregate,
		Passed:            gate.ConsensusPassed(it.Aggregate, r.params.ScoreThreshold),
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
	it.Report.Consensus = &ConsensusReport{Aggregate: it.Aggregate, Dissent: it.Dissent, Method: r.params.AggregationMethod}
	if gate.DissentExceeds(it.Dissent, r.params.DissentThreshold) {
		it.DissentRecorded = true
		it.Report.Consensus.DissentRecorded = true
		dissent := events.DissentRecorded{TaskID: r.in.TaskID, IterationID: iterID, DisagreementScore: it.Dissent, Judges: []events.DissentJudge{}}
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
func (j *Jury) warnAll(ws []string) {
	for _, w := range ws {
		j.env.Relay(w)
	}
}

// checks gathers tribunal's additional gate checks for this round:
// required command judges, the severity policy, and the trust gate over
// the reps of this round and of the whole task so far.
func (r *round) checks() gate.Checks {
	it := r.it
	var all []trust.Item
	for _, h := range r.in.History {
		all = append(all, h.TrustItems...)
	}
	all = append(all, it.TrustItems...)
	ts := r.cfg.Trust()
	res := trust.Check(it.TrustItems, all, ts.Thresholds)
	it.Trust = &res
	c := gate.Checks{Worst: it.Worst, FailAt: r.failAt, Trust: &res, TrustBlocks: ts.Block}
	for _, cmd := range it.Commands {
		if cmd.Required {
			c.Commands = append(c.Commands, gate.CommandResult{Name: cmd.Name, Passed: cmd.Passed, Evaluator: cmd.Kind == records.KindEvaluator})
		}
	}
	return c
}

// probes runs the deterministic bias probes over this task's rounds so
// far, the current one last; their findings go to the Meta-Judge and into
// meta.json.
func (r *round) probes() []string {
	var its []probeIteration
	for _, h := range append(append([]*Round{}, r.in.History...), r.it) {
		pi := probeIteration{Aggregate: h.Aggregate, OutputBytes: len(h.ActorOutput)}
		for _, v := range h.Verdicts {
			if s, ok := v.UsableScore(); ok {
				pi.Judges = append(pi.Judges, probeJudge{Type: v.JudgeType, Score: s})
			}
		}
		its = append(its, pi)
	}
	var out []string
	for _, f := range runProbes(its) {
		out = append(out, f.String())
	}
	// Command judges and evaluators are facts, not opinions: the
	// meta-judge should weigh a judge that passed work whose tests fail.
	for _, c := range r.it.Commands {
		if !c.Passed {
			out = append(out, c.Noun()+" "+c.Name+" failed: "+firstLine(c.Feedback+c.Error, 200))
		}
	}
	return out
}

// FloorFacts returns the lowest readable report of criterion name across
// all verdicts (the floor uses the minimum, spec §6.2) and its min_pass, for
// reports such as "safety (0.30 < 0.80)". A criterion violated only by an
// unreadable report has no lowest score.
func (j *Jury) FloorFacts(vs []verdict.Verdict, name string) (lowest, floor *float64) {
	if j.rub != nil {
		for _, c := range j.rub.Criteria {
			if c.Name == name && c.MinPass != nil {
				f := *c.MinPass
				floor = &f
				break
			}
		}
	}
	min := math.Inf(1)
	for _, v := range vs {
		cs, ok := v.Reports()
		if !ok {
			continue
		}
		raw, ok := cs[name]
		if !ok {
			continue
		}
		if s, ok := verdict.Usable(json.RawMessage(raw)); ok && s < min {
			min = s
		}
	}
	if !math.IsInf(min, 1) {
		lowest = &min
	}
	return lowest, floor
}

// label names round n of the task in progress lines.
func (j *Jury) label(n int) string { return fmt.Sprintf("[%d/%d]", n+1, j.params.MaxIterations) }
