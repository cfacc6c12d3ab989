package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/answer"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// AnswerOptions are what `tribunal-session judge` asks for.
type AnswerOptions struct {
	// Dir is where the command runs; the repository (whose settings and
	// store are used) is found from it.
	Dir       string
	RubricID  string
	SessionID string
	// Profile and GatePolicy are --profile and --quorum (spec §2.12,
	// §6.3); zero values leave the settings' choice.
	Profile    string
	GatePolicy rules.Policy
	// BudgetUSD overrides tribunal.session.budget_usd, per answer.
	BudgetUSD *float64
	// Quiet drops each answer's progress lines (a batch says one line an
	// answer instead); warnings still go through.
	Quiet bool
}

// Answerer judges answers with one set-up jury (spec §7.20): each answer
// is a record of its own (kind answer) judged exactly as a review's round
// is — jury, meta-judge, gate, severity, trust, the signed ledger — with
// the answer's deterministic checks beside it. Judge may be called from
// several goroutines.
type Answerer struct {
	t *runner
}

// answerState is the answer a runner judges.
type answerState struct{ c answer.Case }

// AnswerResult is one judged answer: its record and the gate's decision.
type AnswerResult struct {
	ID     string
	Record records.Answer
	Report *Report
	Gate   judging.GateReport
	// Worst is the worst finding still raised (Any false when none).
	Worst severity.Level
	Any   bool
}

// NewAnswer sets the jury up once, before any answer is read into the
// store; its error is a *judging.ConfigError, and nothing is recorded.
func NewAnswer(ctx context.Context, opts AnswerOptions, d Deps) (*Answerer, error) {
	t, err := newOneRound(ctx, Options{Task: "judge an answer", RubricID: opts.RubricID, Profile: opts.Profile, GatePolicy: opts.GatePolicy, Dir: opts.Dir, SessionID: opts.SessionID}, d,
		func(r *runner) { r.answer = &answerState{} })
	if err != nil {
		return nil, err
	}
	if opts.BudgetUSD != nil {
		t.params.BudgetUSD = opts.BudgetUSD
	}
	if opts.Quiet {
		t.Progress = func(string) {}
	}
	return &Answerer{t: t}, nil
}

// Close releases what the set-up holds.
func (a *Answerer) Close() { a.t.closePolicy() }

// RubricID is the rubric in use; Rubric checks the answers' must_include
// and must_avoid.
func (a *Answerer) RubricID() string { return a.t.report.RubricID }

// Threshold is the gate's score threshold.
func (a *Answerer) Threshold() float64 { return a.t.params.ScoreThreshold }

// RubricDigest is the hex SHA-256 of the rubric's canonical JSON ("" with
// none).
func (a *Answerer) RubricDigest() string {
	if a.t.rub == nil || len(a.t.rub.Raw) == 0 {
		return ""
	}
	d, _ := jcs.SHA256(a.t.rub.Raw)
	return d
}

// fork is a runner for one answer sharing the set-up's jury, settings
// and store, with an id, a report and costs of its own.
func (a *Answerer) fork(c answer.Case, ch child) (*runner, error) {
	t := a.t
	d := t.Deps
	if ch.deps != nil {
		d = *ch.deps
	}
	r := &runner{Deps: d, opts: t.opts, start: t.Now(), maxCost: map[string]float64{},
		repo: t.repo, cfg: t.cfg, rub: t.rub, params: t.params, project: t.project, workDir: t.workDir, jury: t.jury,
		answer: &answerState{c: c}}
	r.opts.Task, r.opts.candidate = c.Question, ch.of
	em := *t.emitter
	r.emitter = &em
	r.report = &Report{Task: c.Question, RubricID: t.report.RubricID, Seats: t.report.Seats, Families: t.report.Families,
		FamilyNote: t.report.FamilyNote, MaxIterations: t.report.MaxIterations, BudgetUSD: t.params.BudgetUSD}
	id, err := ch.id, error(nil)
	if id == "" {
		if id, err = r.newID(); err != nil {
			return nil, err
		}
	}
	r.taskID, r.report.TaskID = id, id
	r.taskDir = r.project.TaskDir(id)
	r.report.ArtifactDir = r.taskDir
	return r, nil
}

// Judge judges one answer and records it: manifest, events, artifacts,
// report, answer.json and a signed ledger entry. Every judge failing is
// a result (outcome no-verdict), not an error; the error is an interrupt
// or the budget, with the result recorded as far as it went.
func (a *Answerer) Judge(ctx context.Context, c answer.Case) (*AnswerResult, error) {
	return a.judge(ctx, c, child{})
}

// child is how an answer of `judge --candidates` differs from one judged
// alone: an id minted in candidate order, the set it belongs to (its
// manifest's parent), and progress lines that name it. The zero child is
// an answer judged alone.
type child struct {
	id   string
	of   *CandidateOf
	deps *Deps
}

func (a *Answerer) judge(ctx context.Context, c answer.Case, ch child) (*AnswerResult, error) {
	r, err := a.fork(c, ch)
	if err != nil {
		return nil, err
	}
	rec := records.Answer{AnswerID: r.taskID, CaseID: c.ID, Question: c.Question, Answer: c.Answer, Format: c.Format,
		LatencyMS: c.LatencyMS, CostUSD: c.CostUSD, Criteria: c.Criteria, Findings: []records.ReviewFinding{}, Checks: []records.Command{},
		Digests: records.Digests{Question: digest(c.Question), Answer: digest(c.Answer), Rubric: a.RubricDigest()}}
	if c.HasExpected {
		rec.Expected, rec.Match, rec.Digests.Expected = &c.Expected, c.Match, digest(c.Expected)
	}
	for _, s := range c.Context {
		rec.Context = append(rec.Context, s.Name)
		rec.Digests.Context = append(rec.Digests.Context, digest(s.Text))
	}
	r.writeManifests()
	start := r.sessionStart()
	r.emit(start)
	r.write(records.SessionStartFile, start)
	r.progress("judge %s: an answer, rubric %q, %d judge(s)", r.taskID, r.report.RubricID, r.report.Seats)
	it, runErr := r.judgeOnce(ctx, c.Answer, "[judge]", func(in *judging.Input) {
		// No change and no tree: command judges test code, not answers.
		in.Commands, in.Answer, in.Checks = nil, c.Prompt(), answer.Checks(ctx, c, r.rub)
	})
	outcome, sessionOutcome := roundOutcome(it, runErr)
	r.finish(ctx, sessionOutcome, runErr)
	rec.Outcome, rec.Reason = outcome, answerReason(it, runErr)
	for _, cmd := range it.Commands {
		if cmd.Kind == records.KindEvaluator {
			rec.Checks = append(rec.Checks, cmd)
		}
	}
	for _, f := range it.Findings {
		rec.Findings = append(rec.Findings, records.ReviewFinding{Finding: f})
	}
	r.write(records.AnswerFile, rec)
	res := &AnswerResult{ID: r.taskID, Record: rec, Report: r.report, Gate: it.Report.Gate}
	res.Worst, res.Any = severity.WorstOf(it.Findings)
	if runErr != nil && !isNoVerdict(runErr) {
		return res, r.Redact.Error(runErr)
	}
	return res, nil
}

func isNoVerdict(err error) bool { return err != nil && errors.Is(err, ErrNoVerdict) }

// answerReason is the answer's one-line reason.
func answerReason(it *iterationState, err error) string {
	if err != nil {
		return "not a judgement of the answer: " + firstLine(err.Error(), 400)
	}
	agg := 0.0
	if it.Report.Consensus != nil {
		agg = it.Report.Consensus.Aggregate
	}
	return GateSentence(it.Report.Gate, agg)
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
