package otelexport

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"
)

// Attribute keys. The gen_ai.* ones are the OpenTelemetry GenAI semantic
// conventions (gen_ai.system and its successor gen_ai.provider.name are
// both set, for backends on either side of the rename); tribunal.* ones
// carry what the conventions have no word for, under the names the
// events use, so a span can be joined to its event (tribunal.event.id is
// the envelope id), its ledger entry (task and iteration ids) and its
// records (judge id).
const (
	keyOperation    = "gen_ai.operation.name"
	keySystem       = "gen_ai.system"
	keyProvider     = "gen_ai.provider.name"
	keyAgent        = "gen_ai.agent.name"
	keyModel        = "gen_ai.request.model"
	keyInputTokens  = "gen_ai.usage.input_tokens"
	keyOutputTokens = "gen_ai.usage.output_tokens"

	keyTaskID       = "tribunal.task.id"
	keyKind         = "tribunal.kind"
	keySession      = "tribunal.session.id"
	keyMachine      = "tribunal.machine.id"
	keyEventID      = "tribunal.event.id"
	keyOutcome      = "tribunal.outcome"
	keyFinalScore   = "tribunal.final_score"
	keyIterations   = "tribunal.iterations_used"
	keyMaxIter      = "tribunal.max_iterations"
	keyCost         = "tribunal.cost_usd"
	keyTokens       = "tribunal.usage.tokens"
	keyDuration     = "tribunal.duration_ms"
	keyPolicy       = "tribunal.gate.policy"
	keyThreshold    = "tribunal.score_threshold"
	keyJudgeTypes   = "tribunal.judge_types"
	keyRubricID     = "tribunal.rubric.id"
	keyRubricDigest = "tribunal.rubric.sha256"

	keyIterID      = "tribunal.iteration.id"
	keyIterNumber  = "tribunal.iteration.number"
	keyTrigger     = "tribunal.iteration.trigger"
	keyConsensus   = "tribunal.consensus.score"
	keyMethod      = "tribunal.consensus.method"
	keyConsPassed  = "tribunal.consensus.passed"
	keyDissent     = "tribunal.dissent.score"
	keySuccess     = "tribunal.actor.success"
	keyArtifact    = "tribunal.actor.artifact_kind"
	keyJudgeID     = "tribunal.judge.id"
	keyJudgeType   = "tribunal.judge.type"
	keyPanelSize   = "tribunal.jury.panel_size"
	keyScore       = "tribunal.verdict.score"
	keyPassed      = "tribunal.verdict.passed"
	keyConfidence  = "tribunal.verdict.confidence"
	keyCriterion   = "tribunal.verdict.criterion." // + criterion name
	keyQuality     = "tribunal.meta.verdict_quality"
	keyBias        = "tribunal.meta.bias_detected"
	keyBiasTypes   = "tribunal.meta.bias_types"
	keyOverride    = "tribunal.meta.override"
	keyDecision    = "tribunal.gate.decision"
	keyReason      = "tribunal.gate.reason"
	keyWillRetry   = "tribunal.gate.will_retry"
	keyFailedCrit  = "tribunal.gate.failed_criterion"
	keyConsulted   = "tribunal.gate.judges_consulted"
	keyRole        = "tribunal.call.role"
	keyRep         = "tribunal.call.rep"
	keyAttempt     = "tribunal.call.attempt"
	keyCallProv    = "tribunal.call.provider"
	keyTurns       = "tribunal.call.num_turns"
	keyExitCode    = "tribunal.call.exit_code"
	keyCallFile    = "tribunal.call.record"
	keyBash        = "tribunal.call.bash"
	keyErrorDetail = "tribunal.error"
)

// attrs collects a span's attributes, leaving out what is unset.
type attrs []attribute.KeyValue

func (a *attrs) str(k, v string) {
	if v != "" {
		*a = append(*a, attribute.String(k, v))
	}
}

func (a *attrs) num(k string, v *float64) {
	if v != nil {
		*a = append(*a, attribute.Float64(k, *v))
	}
}

func (a *attrs) int(k string, v *int) {
	if v != nil {
		*a = append(*a, attribute.Int(k, *v))
	}
}

func (a *attrs) bool(k string, v bool) { *a = append(*a, attribute.Bool(k, v)) }

func (a *attrs) strs(k string, v []string) {
	if len(v) > 0 {
		*a = append(*a, attribute.StringSlice(k, v))
	}
}

// genAISystem is gen_ai.system for a tribunal provider name, or for a
// model when the provider is not recorded (a claude-* model is
// Anthropic's; other names are left unclaimed rather than guessed).
func genAISystem(provider, model string) string {
	switch provider {
	case "claude":
		return "anthropic"
	case "openai", "codex":
		return "openai"
	case "gemini":
		return "gcp.gemini"
	case "":
		if strings.HasPrefix(model, "claude") {
			return "anthropic"
		}
		return ""
	}
	return provider
}

// model sets the GenAI attributes of a model invocation.
func (a *attrs) model(operation, provider, model string) {
	a.str(keyOperation, operation)
	if sys := genAISystem(provider, model); sys != "" {
		a.str(keySystem, sys)
		a.str(keyProvider, sys)
	}
	a.str(keyModel, model)
}
