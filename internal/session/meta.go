package session

import (
	"context"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/claude"
	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/gate"
	"github.com/tribunal-cc/tribunal/internal/ledger"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// runMeta is spec §7.4 step 6. A failed Meta-Judge never aborts: it becomes the
// failure default (questionable, no bias, no override), so the gate falls
// back to score-based logic.
func (r *runner) runMeta(ctx context.Context, it *iterationState, dir, label string) error {
	iterID := it.report.IterationID
	r.emit(events.MetaStart{TaskID: r.taskID, IterationID: iterID, MetaModelID: r.params.MetaModel, VerdictsReviewed: events.Ptr(len(it.verdicts))})
	if err := r.budgetAllows("meta", 1); err != nil {
		return err
	}
	agent, _ := prompts.Agent(prompts.MetaJudgeAgent)
	in := prompts.MetaInput{Task: r.opts.Task, ActorOutput: it.actorOutput, Probes: r.probes(it)}
	for _, v := range it.verdicts {
		mv := prompts.MetaVerdict{
			JudgeID: v.JudgeID, JudgeType: v.JudgeType, Passed: v.Passed, Failed: v.Failed,
			CriteriaEvaluated: v.CriteriaEvaluated, Feedback: v.FeedbackSummary, Confidence: v.Confidence,
		}
		if s, ok := v.UsableScore(); ok {
			mv.Score = events.Ptr(s)
		}
		in.Verdicts = append(in.Verdicts, mv)
	}
	for _, h := range r.history {
		pi := prompts.PriorIteration{Number: h.report.Number, Scores: map[string]float64{}}
		for _, j := range h.report.Judges {
			if j.Score != nil {
				pi.Scores[j.Type+" "+shortID(j.JudgeID)] = *j.Score
			}
		}
		pi.Summary = fmt.Sprintf("aggregate %.2f, gate %s", h.aggregate, gateWord(h.gate))
		in.PriorIterations = append(in.PriorIterations, pi)
	}
	r.progress("%s meta-judge reviewing the jury (%s)…", label, modelName(r.params.MetaModel))
	stop := r.longPhase(label, "waiting for the meta-judge")
	call := claude.Call{
		Role: "meta", Prompt: prompts.MetaPrompt(in), SystemPrompt: agent.Body,
		Model: r.params.MetaModel, JSONSchema: prompts.MetaSchema(),
		Tools: agent.Tools, AllowedTools: claude.NeedApproval(agent.Tools), MaxTurns: metaMaxTurns, StrictMCP: true,
		MaxOutputTokens: r.params.MetaMaxTokens, Dir: r.workDir,
		Timeout: r.params.MetaTimeout,
	}
	seq := it.nextCall()
	res, err := r.metaRunner().Run(ctx, call)
	stop()
	r.recordCall(dir, seq, "meta", r.prov.meta, records.CallMeta{Role: "meta"}, call, res, err)
	r.addCost("meta", res)
	if ctx.Err() != nil {
		return fmt.Errorf("%w during the meta-judge", ErrInterrupted)
	}
	var meta verdict.Meta
	if err != nil {
		meta = verdict.FailedMeta(err.Error())
	} else {
		text := res.Text
		if res.Structured != nil {
			text = string(res.Structured)
		}
		var warns []string
		meta, warns = verdict.NormaliseMeta(text)
		r.warnAll(warns)
	}
	it.meta = meta
	complete := events.MetaComplete{
		TaskID: r.taskID, IterationID: iterID, VerdictQuality: meta.VerdictQuality,
		BiasDetected: meta.BiasDetected, OverrideRecommendation: meta.Override,
		BiasTypes: meta.BiasTypes, Confidence: meta.Confidence, MetaModelID: r.params.MetaModel,
	}
	r.emit(complete, costOpts(res)...)
	info := r.prov.meta.Info(r.params.MetaModel)
	r.write(filepath.Join(dir, records.MetaFile), records.Meta{MetaComplete: complete, Failed: meta.Failed, Error: meta.Error, Probes: in.Probes, Judge: info})
	it.report.Meta = MetaReport{
		Quality: meta.VerdictQuality, Bias: meta.BiasDetected, BiasTypes: meta.BiasTypes,
		Override: meta.Override, Failed: meta.Failed, Error: meta.Error, Probes: in.Probes,
		Provider: info.Provider, Family: info.Family,
	}
	note := meta.VerdictQuality
	if meta.BiasDetected {
		note += ", bias: " + strings.Join(meta.BiasTypes, ", ")
	}
	if meta.Override != "" {
		note += ", recommends " + meta.Override
	}
	if meta.Failed {
		note = "failed (" + firstLine(meta.Error, 120) + "); using questionable, no bias"
	}
	r.progress("%s meta-judge: %s", label, note)
	return nil
}

func shortID(id string) string {
	if len(id) > 6 {
		return id[len(id)-6:]
	}
	return id
}

func gateWord(g gate.Result) string {
	if g.Passed {
		return "passed"
	}
	return "blocked (" + string(g.Reason) + ")"
}

// recordGate writes gate.json and emits the gate event (spec §7.4 step 7).
func (r *runner) recordGate(it *iterationState, dir string, n int) {
	iterID := it.report.IterationID
	res := it.gate
	gr := GateReport{Passed: res.Passed, Reason: res.Reason, FailedCriterion: res.FailedCriterion, BlockedBy: res.BlockedBy, Trust: it.trust}
	// gate.json carries the event payload plus what only tribunal reads:
	// which extra check blocked, the trust result, findings and commands.
	extra := records.GateChecks{BlockedBy: res.BlockedBy, Trust: it.trust, WorstSeverity: it.report.WorstSeverity, Findings: it.findings, Commands: it.commands}
	label := fmt.Sprintf("[%d/%d]", n+1, r.params.MaxIterations)
	if res.Passed {
		p := events.GatePassed{TaskID: r.taskID, IterationID: iterID, FinalScore: it.aggregate,
			IterationNumber: events.Ptr(n), JudgesConsulted: events.Ptr(len(it.verdicts))}
		r.emit(p)
		r.write(filepath.Join(dir, records.GateFile), records.GatePassed{GatePassed: p, Passed: true, GateChecks: extra})
		r.progress("%s gate passed at %.2f", label, it.aggregate)
	} else {
		willRetry := n+1 < r.params.MaxIterations
		b := events.GateBlocked{TaskID: r.taskID, IterationID: iterID, Reason: res.Reason,
			FinalScore: events.Ptr(it.aggregate), IterationNumber: events.Ptr(n),
			WillRetry: events.Ptr(willRetry), FailedCriterion: res.FailedCriterion}
		if willRetry {
			b.RetryIterationNumber = events.Ptr(n + 1)
		}
		r.emit(b)
		gr.WillRetry = willRetry
		if res.FailedCriterion != "" {
			gr.FloorScore, gr.Floor = r.floorFacts(it.verdicts, res.FailedCriterion)
		}
		r.write(filepath.Join(dir, records.GateFile), records.GateBlocked{GateBlocked: b, Passed: false, GateChecks: extra})
		r.progress("%s gate %s%s", label, GateSentence(gr, it.aggregate), map[bool]string{true: "; retrying with the jury's critique", false: ""}[willRetry])
	}
	it.report.Gate = gr
	r.ledger(it, n)
}

// ledgerRecord is what the signed ledger keeps of one gate decision: the
// decision, the numbers it was made from, and every verdict as the gate
// saw it, so that the chain alone can show what was decided and why.
type ledgerRecord struct {
	IterationNumber int               `json:"iteration_number"`
	Passed          bool              `json:"passed"`
	Reason          rules.Reason      `json:"reason,omitempty"`
	FailedCriterion string            `json:"failed_criterion,omitempty"`
	BlockedBy       rules.Check       `json:"blocked_by,omitempty"`
	Aggregate       float64           `json:"aggregated_score"`
	Disagreement    float64           `json:"disagreement"`
	Policy          rules.Policy      `json:"gate_policy"`
	Threshold       float64           `json:"score_threshold"`
	RubricID        string            `json:"rubric_id"`
	Verdicts        []verdict.Verdict `json:"verdicts"`
	Meta            ledgerMeta        `json:"meta"`
	WorstSeverity   string            `json:"worst_severity,omitempty"`
	Commands        []records.Command `json:"command_judges,omitempty"`
	Trustworthy     *bool             `json:"trustworthy,omitempty"`
}

type ledgerMeta struct {
	Quality  string `json:"verdict_quality"`
	Bias     bool   `json:"bias_detected"`
	Override string `json:"override_recommendation,omitempty"`
}

// ledger appends the gate decision to the project's signed ledger. A
// failure is a warning: the decision stands and is in the events and
// artifacts; `tribunal-session verify` will say what is wrong.
func (r *runner) ledger(it *iterationState, n int) {
	if r.shadow {
		return
	}
	rec := ledgerRecord{
		IterationNumber: n, Passed: it.gate.Passed, Reason: it.gate.Reason,
		FailedCriterion: it.gate.FailedCriterion, BlockedBy: it.gate.BlockedBy,
		Aggregate: it.aggregate, Disagreement: it.dissent, Policy: r.params.GatePolicy,
		Threshold: r.params.ScoreThreshold, RubricID: r.report.RubricID, Verdicts: it.verdicts,
		Meta:          ledgerMeta{Quality: it.meta.VerdictQuality, Bias: it.meta.BiasDetected, Override: it.meta.Override},
		WorstSeverity: it.report.WorstSeverity, Commands: it.commands,
	}
	if it.trust != nil {
		rec.Trustworthy = &it.trust.Trustworthy
	}
	_, err := ledger.Append(ledger.PathFor(r.project.Dir), ledger.KeyDir(r.emitter.Dir), ledger.KindGate,
		ledger.Fields{TaskID: r.taskID, IterationID: it.report.IterationID, SessionID: r.opts.SessionID, Redact: r.Redact}, rec, r.Now())
	if err != nil {
		r.Warn(fmt.Sprintf("gate decision not added to the ledger: %v", err))
	}
}
