package judging

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// runMeta is spec §7.4 step 6. A failed Meta-Judge never aborts: it becomes the
// failure default (questionable, no bias, no override), so the gate falls
// back to score-based logic.
func (r *round) runMeta(ctx context.Context) error {
	it, label := r.it, r.in.Label
	r.emit(events.MetaStart{TaskID: r.in.TaskID, IterationID: it.Report.IterationID, MetaModelID: r.params.MetaModel, VerdictsReviewed: events.Ptr(len(it.Verdicts))})
	if err := r.rec.Budget("meta", 1); err != nil {
		return err
	}
	agent, _ := prompts.Agent(prompts.MetaJudgeAgent)
	in := r.metaInput()
	r.progress("%s meta-judge reviewing the jury (%s)…", label, ModelName(r.params.MetaModel))
	stop := r.rec.LongPhase(label, "waiting for the meta-judge")
	call := claude.Call{
		Role: "meta", Prompt: prompts.MetaPrompt(in), SystemPrompt: agent.Body,
		Model: r.params.MetaModel, JSONSchema: prompts.MetaSchema(),
		Tools: agent.Tools, AllowedTools: claude.NeedApproval(agent.Tools), MaxTurns: metaMaxTurns, StrictMCP: true,
		MaxOutputTokens: r.params.MetaMaxTokens, Dir: r.in.Dir,
		Timeout: r.params.MetaTimeout,
	}
	seq := it.NextCall()
	res, err := r.metaResult(ctx, call, in.Probes)
	stop()
	r.recordCall(seq, "meta", r.prov.meta, records.CallMeta{Role: "meta"}, call, res, err)
	r.rec.AddCost("meta", res)
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
		if !meta.Failed && suspect(r.prov.meta, res, err) {
			meta = verdict.FailedMeta(SuspectError)
		}
	}
	r.recordMeta(meta, in.Probes, res)
	return nil
}

// metaInput is what the meta-judge reviews: this round's verdicts, the
// bias probes and the task's earlier rounds.
func (r *round) metaInput() prompts.MetaInput {
	in := prompts.MetaInput{Task: r.in.Task, ActorOutput: r.it.ActorOutput, Probes: r.probes(), Directives: r.Directives()}
	for _, v := range r.it.Verdicts {
		mv := prompts.MetaVerdict{
			JudgeID: v.JudgeID, JudgeType: v.JudgeType, Passed: v.Passed, Failed: v.Failed,
			CriteriaEvaluated: v.CriteriaEvaluated, Feedback: v.FeedbackSummary, Confidence: v.Confidence,
		}
		if s, ok := v.UsableScore(); ok {
			mv.Score = events.Ptr(s)
		}
		in.Verdicts = append(in.Verdicts, mv)
	}
	for _, h := range r.in.History {
		pi := prompts.PriorIteration{Number: h.Report.Number, Scores: map[string]float64{}}
		for _, j := range h.Report.Judges {
			if j.Score != nil {
				pi.Scores[j.Type+" "+shortID(j.JudgeID)] = *j.Score
			}
		}
		pi.Summary = fmt.Sprintf("aggregate %.2f, gate %s", h.Aggregate, gateWord(h.Gate))
		in.PriorIterations = append(in.PriorIterations, pi)
	}
	return in
}

// recordMeta keeps the meta-judge's review: the event, meta.json, the
// report and a progress line.
func (r *round) recordMeta(meta verdict.Meta, probes []string, res claude.Result) {
	it := r.it
	it.Meta = meta
	complete := events.MetaComplete{
		TaskID: r.in.TaskID, IterationID: it.Report.IterationID, VerdictQuality: meta.VerdictQuality,
		BiasDetected: meta.BiasDetected, OverrideRecommendation: meta.Override,
		BiasTypes: meta.BiasTypes, Confidence: meta.Confidence, MetaModelID: r.params.MetaModel,
	}
	r.emit(complete, CostOpts(res)...)
	info := r.prov.meta.Info(r.params.MetaModel)
	r.write(filepath.Join(r.in.ArtifactDir, records.MetaFile), records.Meta{MetaComplete: complete, Failed: meta.Failed, Error: meta.Error, Probes: probes, Judge: info})
	it.Report.Meta = MetaReport{
		Quality: meta.VerdictQuality, Bias: meta.BiasDetected, BiasTypes: meta.BiasTypes,
		Override: meta.Override, Failed: meta.Failed, Error: meta.Error, Probes: probes,
		Provider: info.Provider, Family: info.Family, Suspect: meta.Failed && meta.Error == SuspectError,
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
	r.progress("%s meta-judge: %s", r.in.Label, note)
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

// ModelName names a model in progress lines.
func ModelName(m string) string {
	if m == "" {
		return "default model"
	}
	return m
}

// CostOpts are the cost and token options of an event about res.
func CostOpts(res claude.Result) []events.Option {
	var opts []events.Option
	if res.CostUSD != nil {
		opts = append(opts, events.WithCost(*res.CostUSD))
	}
	if res.Tokens != nil {
		opts = append(opts, events.WithTokens(*res.Tokens))
	}
	return opts
}

// recordGate writes gate.json and emits the gate event (spec §7.4 step 7),
// then hands the decision to the ledger.
func (r *round) recordGate() {
	it, n := r.it, r.it.Report.Number
	iterID := it.Report.IterationID
	res := it.Gate
	gr := GateReport{Passed: res.Passed, Reason: res.Reason, FailedCriterion: res.FailedCriterion, BlockedBy: res.BlockedBy, Trust: it.Trust}
	// gate.json carries the event payload plus what only tribunal reads:
	// which extra check blocked, the trust result, findings and commands.
	extra := records.GateChecks{BlockedBy: res.BlockedBy, Trust: it.Trust, WorstSeverity: it.Report.WorstSeverity, Findings: it.Findings, Commands: it.Commands}
	label := r.label(n)
	path := filepath.Join(r.in.ArtifactDir, records.GateFile)
	if res.Passed {
		p := events.GatePassed{TaskID: r.in.TaskID, IterationID: iterID, FinalScore: it.Aggregate,
			IterationNumber: events.Ptr(n), JudgesConsulted: events.Ptr(len(it.Verdicts))}
		r.emit(p)
		r.write(path, records.GatePassed{GatePassed: p, Passed: true, GateChecks: extra})
		r.progress("%s gate passed at %.2f", label, it.Aggregate)
	} else {
		willRetry := n+1 < r.params.MaxIterations
		b := events.GateBlocked{TaskID: r.in.TaskID, IterationID: iterID, Reason: res.Reason,
			FinalScore: events.Ptr(it.Aggregate), IterationNumber: events.Ptr(n),
			WillRetry: events.Ptr(willRetry), FailedCriterion: res.FailedCriterion}
		if willRetry {
			b.RetryIterationNumber = events.Ptr(n + 1)
		}
		r.emit(b)
		gr.WillRetry = willRetry
		if res.FailedCriterion != "" {
			gr.FloorScore, gr.Floor = r.FloorFacts(it.Verdicts, res.FailedCriterion)
		}
		r.write(path, records.GateBlocked{GateBlocked: b, Passed: false, GateChecks: extra})
		r.progress("%s gate %s%s", label, GateSentence(gr, it.Aggregate), map[bool]string{true: "; retrying with the jury's critique", false: ""}[willRetry])
	}
	it.Report.Gate = gr
	r.rec.Ledger(iterID, r.ledgerRecord())
}

// LedgerRecord is what the signed ledger keeps of one gate decision: the
// decision, the numbers it was made from, and every verdict as the gate
// saw it, so that the chain alone can show what was decided and why.
type LedgerRecord struct {
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
	Meta            LedgerMeta        `json:"meta"`
	WorstSeverity   string            `json:"worst_severity,omitempty"`
	Commands        []records.Command `json:"command_judges,omitempty"`
	Trustworthy     *bool             `json:"trustworthy,omitempty"`
}

// LedgerMeta is the meta-judge's part of a LedgerRecord.
type LedgerMeta struct {
	Quality  string `json:"verdict_quality"`
	Bias     bool   `json:"bias_detected"`
	Override string `json:"override_recommendation,omitempty"`
	// Skipped: no meta-judge was called (spec §4.6 Skipping).
	Skipped bool `json:"skipped,omitempty"`
}

func (r *round) ledgerRecord() LedgerRecord {
	it := r.it
	rec := LedgerRecord{
		IterationNumber: it.Report.Number, Passed: it.Gate.Passed, Reason: it.Gate.Reason,
		FailedCriterion: it.Gate.FailedCriterion, BlockedBy: it.Gate.BlockedBy,
		Aggregate: it.Aggregate, Disagreement: it.Dissent, Policy: r.params.GatePolicy,
		Threshold: r.params.ScoreThreshold, RubricID: r.rubricID, Verdicts: it.Verdicts,
		Meta:          LedgerMeta{Quality: it.Meta.VerdictQuality, Bias: it.Meta.BiasDetected, Override: it.Meta.Override, Skipped: it.Meta.Skipped},
		WorstSeverity: it.Report.WorstSeverity, Commands: it.Commands,
	}
	if it.Trust != nil {
		rec.Trustworthy = &it.Trust.Trustworthy
	}
	return rec
}
