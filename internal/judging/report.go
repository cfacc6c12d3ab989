package judging

import (
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/trust"
)

// IterationReport is one pass of the loop: the actor's part
// (session) and the round of judging.
type IterationReport struct {
	Number      int              `json:"iteration_number"`
	IterationID string           `json:"iteration_id"`
	DurationMS  int              `json:"duration_ms"`
	Actor       ActorReport      `json:"actor"`
	Judges      []JudgeReport    `json:"judges"`
	Consensus   *ConsensusReport `json:"consensus,omitempty"`
	Meta        MetaReport       `json:"meta"`
	Gate        GateReport       `json:"gate"`
	// Beyond tribunal 1.2.7: command judges, the worst finding severity.
	Commands      []records.Command `json:"command_judges,omitempty"`
	WorstSeverity string            `json:"worst_severity,omitempty"`
	// Commit is the task branch's commit after this iteration's actor;
	// Files are the files changed relative to the starting snapshot.
	// UnverifiedFindings counts findings whose cited file or line does not
	// exist in the judged tree: shown, never blocking.
	UnverifiedFindings int `json:"unverified_findings,omitempty"`
	// RefutedFindings counts blocking findings the verification step
	// refuted (spec §6.8): shown, never blocking; VerificationFailures
	// those it could not verify, which count.
	RefutedFindings      int `json:"refuted_findings,omitempty"`
	VerificationFailures int `json:"verification_failures,omitempty"`
	// PassedWithoutVerification is the gate's decision had no finding been
	// refuted; set only when one was.
	PassedWithoutVerification *bool                `json:"passed_without_verification,omitempty"`
	Commit                    string               `json:"commit,omitempty"`
	Files                     []records.FileChange `json:"files_changed,omitempty"`
	// Refused is what this iteration's commit did not record.
	Refused []records.Refusal `json:"refused_files,omitempty"`
}

// ActorReport describes the Actor's pass.
type ActorReport struct {
	DurationMS   int      `json:"duration_ms"`
	ArtifactKind string   `json:"artifact_kind,omitempty"`
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// JudgeReport is one seat's verdict.
type JudgeReport struct {
	JudgeID         string             `json:"judge_id"`
	Type            string             `json:"judge_type"`
	Model           string             `json:"model,omitempty"`
	Score           *float64           `json:"score,omitempty"`
	Passed          bool               `json:"passed"`
	Failed          bool               `json:"failed,omitempty"`
	Error           string             `json:"error,omitempty"`
	Feedback        string             `json:"feedback_summary,omitempty"`
	CriterionScores map[string]float64 `json:"criterion_scores,omitempty"`
	CostUSD         *float64           `json:"cost_usd,omitempty"`
	Reps            int                `json:"reps,omitempty"`
	// Provider and Family say which client and model family judged.
	Provider string `json:"provider,omitempty"`
	Family   string `json:"family,omitempty"`
	// Bash is "sandboxed" when the seat had Bash inside Claude Code's
	// sandbox, "withheld" when its agent has Bash but no sandbox could run
	// (docs/security.md §2.4); empty for a seat without Bash.
	Bash string `json:"bash,omitempty"`
	// Suspect marks a seat whose answer reported no usage from a client
	// that always reports it: failed, out of the gate (spec §4.8).
	Suspect bool `json:"suspect,omitempty"`
}

// ConsensusReport is the aggregate and dissent.
type ConsensusReport struct {
	Aggregate       float64      `json:"aggregated_score"`
	Method          rules.Method `json:"aggregation_method"`
	Dissent         float64      `json:"disagreement"`
	DissentRecorded bool         `json:"dissent_recorded"`
}

// MetaReport is the Meta-Judge's review.
type MetaReport struct {
	Quality   string   `json:"verdict_quality"`
	Bias      bool     `json:"bias_detected"`
	BiasTypes []string `json:"bias_types,omitempty"`
	Override  string   `json:"override_recommendation,omitempty"`
	Failed    bool     `json:"failed,omitempty"`
	Error     string   `json:"error,omitempty"`
	Probes    []string `json:"bias_probes,omitempty"`
	Provider  string   `json:"provider,omitempty"`
	Family    string   `json:"family,omitempty"`
	Suspect   bool     `json:"suspect,omitempty"`
	// Skipped: the meta-judge was not called (spec §4.6 Skipping), for
	// the reason SkipReason gives.
	Skipped    bool   `json:"skipped,omitempty"`
	SkipReason string `json:"skip_reason,omitempty"`
}

// GateReport is the gate's decision with the facts a person needs to read
// it (spec §7.9: a floor block names the score and the floor).
type GateReport struct {
	Passed          bool         `json:"passed"`
	Reason          rules.Reason `json:"reason,omitempty"`
	FailedCriterion string       `json:"failed_criterion,omitempty"`
	FloorScore      *float64     `json:"failed_criterion_score,omitempty"`
	Floor           *float64     `json:"failed_criterion_floor,omitempty"`
	WillRetry       bool         `json:"will_retry,omitempty"`
	// BlockedBy names an additional check that blocked (command,
	// severity, trust); Trust is the trust gate's result.
	BlockedBy rules.Check   `json:"blocked_by,omitempty"`
	Trust     *trust.Result `json:"trust,omitempty"`
}

// GateSentence says what the gate decided, in gate.Sentence's words.
func GateSentence(g GateReport, aggregate float64) string {
	f := gate.Facts{Aggregate: &aggregate, FloorScore: g.FloorScore, Floor: g.Floor}
	if g.Trust != nil {
		f.TrustReasons = g.Trust.Reasons
	}
	return gate.Sentence(gate.Result{Passed: g.Passed, Reason: g.Reason,
		FailedCriterion: safetext.Inline(g.FailedCriterion, 200), BlockedBy: g.BlockedBy}, f)
}
