package records

import (
	"encoding/json"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/trust"
)

// ProjectManifest is the project directory's manifest.json (spec §7.6).
type ProjectManifest struct {
	ProjectKey string  `json:"project_key"`
	RemoteURL  *string `json:"remote_url"`
	RepoRoot   *string `json:"repo_root"`
	LastTaskAt string  `json:"last_task_at"`
	Source     string  `json:"source"`
}

// Manifest is a task's manifest.json (spec §7.6) plus the Go "effective"
// snapshot. Rubric is the rubric as loaded (null without one).
type Manifest struct {
	TaskID      string          `json:"task_id"`
	TaskSummary string          `json:"task_summary"`
	RubricID    string          `json:"rubric_id"`
	Rubric      json.RawMessage `json:"rubric"`
	StartedAt   string          `json:"started_at"`
	Effective   Effective       `json:"effective"`
	SessionID   string          `json:"session_id,omitempty"`
	// Kind is KindReview for a review of an existing change,
	// KindBestOfN or KindCandidate for a `run --candidates` task and its
	// candidates; "" is a /tribunal task.
	Kind string `json:"kind,omitempty"`
	// Parent is a candidate's best-of-N task.
	Parent string `json:"parent_task_id,omitempty"`
	// PolicyFromBase are the tribunal policy files a review's change
	// edits: judged under the base's copies (review.json has them too).
	PolicyFromBase []string `json:"policy_from_base,omitempty"`
	// Title names a review by its change (review.Change.Title:
	// "main...feature", "staged", "worktree", a diff's name); "" for a
	// task, and for reviews recorded before it (ReviewTitle).
	Title string `json:"title,omitempty"`
}

// ReviewNoTask is the task a review's judges are given when nobody said
// what the change is for: the same sentence for every such review, so it
// names none of them (history.Title skips it).
const ReviewNoTask = "Review this change. Nobody said what it is meant to do: judge it on its own terms — is it correct, safe, complete for what it evidently sets out to do, and clear?"

// ReviewTitle is the name of a review recorded without a manifest title:
// its change as review.json has it, the merge base and head commits
// standing in for the refs that were not recorded.
func ReviewTitle(rev Review) string {
	short := func(id string) string { return id[:min(len(id), 12)] }
	switch rev.Change {
	case "range":
		return short(rev.Base) + "..." + short(rev.Head)
	case "":
		return "review"
	case "diff":
		return "a diff on " + short(rev.Base)
	}
	return rev.Change
}

// KindReview marks a task directory that holds a review
// (`tribunal-session review`): no actor, one round of judging.
const KindReview = "review"

// Review is review.json: what a review judged and what it found.
type Review struct {
	ReviewID string `json:"review_id"`
	// Change is "range", "staged" or "diff" (internal/review); Base and
	// Head the commits ("" for a head state that is not a commit).
	Change   string `json:"change"`
	Base     string `json:"base,omitempty"`
	Head     string `json:"head,omitempty"`
	BaseTree string `json:"base_tree"`
	HeadKey  string `json:"head_key"`
	// Outcome is accepted, rejected or no-verdict; Reason the gate's
	// one-line reason.
	Outcome  string          `json:"outcome"`
	Reason   string          `json:"reason"`
	Findings []ReviewFinding `json:"findings"`
	// Dismissed counts the findings dropped by the dismissal file.
	Dismissed int `json:"dismissed,omitempty"`
	// Omitted says what the judges' diff left out (unidiff.RenderNoting).
	Omitted []string `json:"omitted,omitempty"`
	// DiffBytes is the bound the judges' diff was rendered within.
	DiffBytes int `json:"diff_bytes"`
	// PolicyFromBase are the policy files the change edits
	// (review.PolicyPaths): it was judged under the base's copies.
	PolicyFromBase []string `json:"policy_from_base,omitempty"`
}

// ReviewFinding is a finding and its fingerprint (dismiss.Fingerprint).
type ReviewFinding struct {
	severity.Finding
	Fingerprint string `json:"fingerprint"`
}

// Effective is what the task ran with. Params holds a Params; it stays raw
// so that a manifest whose parameters cannot be used still lists.
type Effective struct {
	Params       json.RawMessage `json:"params"`
	ActorModel   string          `json:"actor_model_id"`
	JudgeModels  []string        `json:"judge_model_ids"`
	MetaModel    string          `json:"meta_model_id"`
	WorktreeRoot string          `json:"worktree_root"`
	// Families are the model families on the panel (internal/llm/provider).
	Families []string `json:"panel_families,omitempty"`
}

// Params is a manifest's effective.params: the session's effective
// parameters (spec §2.4, spec §2.5) as config.Params renders them, durations
// in seconds. The thresholds are pointers so that a reader can tell a
// missing value from 0.
type Params struct {
	ScoreThreshold       *float64          `json:"score_threshold"`
	MaxIterations        int               `json:"max_iterations"`
	GatePolicy           rules.Policy      `json:"gate_policy"`
	AggregationMethod    rules.Method      `json:"aggregation_method"`
	JudgeTypes           []json.RawMessage `json:"judge_types"`
	DissentThreshold     *float64          `json:"dissent_threshold"`
	MinCriterionCoverage *float64          `json:"min_criterion_coverage"`
	ActorModel           string            `json:"actor_model"`
	MetaModel            string            `json:"meta_model"`
	ActorMaxTokens       int               `json:"actor_max_output_tokens"`
	JudgeMaxTokens       int               `json:"judge_max_output_tokens"`
	MetaMaxTokens        int               `json:"meta_max_output_tokens"`
	JudgeTimeout         float64           `json:"judge_timeout_seconds"`
	ActorTimeout         float64           `json:"actor_timeout_seconds"`
	MetaTimeout          float64           `json:"meta_timeout_seconds"`
	BudgetUSD            *float64          `json:"budget_usd,omitempty"`
}

// Params decodes the manifest's effective parameters; ok is false when the
// manifest has none usable.
func (m *Manifest) Params() (Params, bool) {
	var p Params
	if m == nil || len(m.Effective.Params) == 0 || json.Unmarshal(m.Effective.Params, &p) != nil {
		return Params{}, false
	}
	return p, p.GatePolicy != "" && p.ScoreThreshold != nil
}

// Complete is session-complete.json: the session.complete payload plus
// the run's error. A reader without the file takes the event's payload.
type Complete struct {
	events.SessionComplete
	Error string `json:"error,omitempty"`
}

// Seat is one entry of jury.json, in tribunal 1.2.7's form: the agent is
// "subagent" and an unconfigured model is null.
type Seat struct {
	JudgeID   string  `json:"judge_id"`
	JudgeType string  `json:"judge_type"`
	Subagent  string  `json:"subagent"`
	Model     *string `json:"model"`
}

// Meta is meta.json: the meta.complete payload plus what only tribunal
// reads.
type Meta struct {
	events.MetaComplete
	Failed bool   `json:"failed,omitempty"`
	Error  string `json:"error,omitempty"`
	// Skipped: the meta-judge was not called (spec §4.6 Skipping);
	// SkipReason says why, in words. verdict_quality is then empty.
	Skipped    bool     `json:"skipped,omitempty"`
	SkipReason string   `json:"skip_reason,omitempty"`
	Probes     []string `json:"bias_probes,omitempty"`
	// Judge says which client and model family reviewed the jury.
	Judge JudgeInfo `json:"judge"`
}

// GateChecks are what gate.json carries beyond the gate event: tribunal's
// additional checks (docs/adr/007) — which one blocked after the core gate
// passed, the trust result, findings and command judges.
type GateChecks struct {
	BlockedBy     rules.Check        `json:"blocked_by,omitempty"`
	Trust         *trust.Result      `json:"trust,omitempty"`
	WorstSeverity string             `json:"worst_severity,omitempty"`
	Findings      []severity.Finding `json:"findings,omitempty"`
	Commands      []Command          `json:"command_judges,omitempty"`
}

// GatePassed is gate.json as written when the gate passed: the gate.passed
// payload, passed and the checks.
type GatePassed struct {
	events.GatePassed
	Passed bool `json:"passed"`
	GateChecks
}

// GateBlocked is gate.json as written when the gate blocked.
type GateBlocked struct {
	events.GateBlocked
	Passed bool `json:"passed"`
	GateChecks
}

// Gate is gate.json as a reader takes it, whichever way the gate went: the
// fields of GatePassed and GateBlocked together (a test holds them
// together).
type Gate struct {
	TaskID               string       `json:"task_id"`
	IterationID          string       `json:"iteration_id"`
	Passed               bool         `json:"passed"`
	Reason               rules.Reason `json:"reason,omitempty"`
	FinalScore           *float64     `json:"final_score,omitempty"`
	IterationNumber      *int         `json:"iteration_number,omitempty"`
	JudgesConsulted      *int         `json:"judges_consulted,omitempty"`
	WillRetry            *bool        `json:"will_retry,omitempty"`
	RetryIterationNumber *int         `json:"retry_iteration_number,omitempty"`
	FailedCriterion      string       `json:"failed_criterion,omitempty"`
	GateChecks
}

// Command is one command judge's or one evaluator's outcome, in gate.json
// and report.json: both are facts the gate's command check weighs.
type Command struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Passed   bool   `json:"passed"`
	Failed   bool   `json:"failed,omitempty"`
	Error    string `json:"error,omitempty"`
	Feedback string `json:"feedback,omitempty"`
	// Kind is KindEvaluator for a rubric's evaluator, "" for a command
	// judge; Severity is an evaluator's rung (spec §2.11).
	Kind     string `json:"kind,omitempty"`
	Severity string `json:"severity,omitempty"`
}

// KindEvaluator marks a Command that is a rubric's evaluator.
const KindEvaluator = "evaluator"

// Label names the check where judges are listed: "command:<name>" or
// "evaluator:<name>".
func (c Command) Label() string {
	if c.Kind == KindEvaluator {
		return "evaluator:" + c.Name
	}
	return "command:" + c.Name
}

// Noun is how a sentence names it: "command judge" or "evaluator".
func (c Command) Noun() string {
	if c.Kind == KindEvaluator {
		return "evaluator"
	}
	return "command judge"
}

// Isolation is report.json's "isolation": where the task ran and what
// became of its change.
type Isolation struct {
	// Mode is "worktree" or "in_place".
	Mode     string `json:"mode"`
	Branch   string `json:"branch,omitempty"`
	Worktree string `json:"worktree,omitempty"`
	Snapshot string `json:"snapshot,omitempty"`
	Head     string `json:"head,omitempty"`
	// State: applied (in the user's working tree, uncommitted), kept (on
	// the task's ref, not applied), unchanged (the actor changed nothing), or
	// in_place.
	State      string       `json:"state"`
	Conflicts  []string     `json:"conflicts,omitempty"`
	Files      []FileChange `json:"files,omitempty"`
	Submodules []string     `json:"submodules,omitempty"`
	Error      string       `json:"error,omitempty"`
	// GitTampered lists the changes the task made to the repository's own
	// git files (config, hooks, info/attributes): the summary's first line.
	GitTampered []Tamper `json:"git_tampered,omitempty"`
	// Refused lists what the last iteration's commit did not record.
	Refused []Refusal `json:"refused,omitempty"`
	// LeftOut names the user's untracked files that the snapshot left out
	// because they look like secrets (internal/git/secretfiles).
	LeftOut []string `json:"left_out,omitempty"`
	// ChangedAfterActor is set on a best-of-N candidate whose worktree
	// changed after its own actor's last turn ended (another candidate's
	// actor may write there): what was judged and kept is not only its
	// actor's work.
	ChangedAfterActor bool `json:"changed_after_actor,omitempty"`
}

// CallMeta says which seat and attempt a model call belongs to.
type CallMeta struct {
	Role string `json:"role"`
	// Provider is the client that made the call (claude, codex, gemini,
	// openai); Endpoint the base URL of an HTTP one, without userinfo,
	// query or fragment, which may hold credentials.
	Provider  string `json:"provider"`
	Endpoint  string `json:"endpoint,omitempty"`
	JudgeID   string `json:"judge_id,omitempty"`
	JudgeType string `json:"judge_type,omitempty"`
	Rep       *int   `json:"rep,omitempty"`
	Attempt   int    `json:"attempt,omitempty"`
	// Bash is "sandboxed" when the judge's Bash ran inside Claude Code's
	// sandbox, "withheld" when its agent has Bash but no sandbox could
	// run; empty for a call without Bash.
	Bash string `json:"bash,omitempty"`
}

// Call is calls/<nn>-<label>.json, the evidence of one model call: what
// was asked, of whom, how, and what came back, verbatim.
type Call struct {
	CallMeta
	Model string `json:"model,omitempty"`
	// Argv is the child's command line (the prompt goes on stdin; a
	// temporary file the client makes is shown as <…>); none for an HTTP
	// provider. The environment is not recorded: it may hold credentials;
	// tribunal adds only the variables named in EnvAdded.
	Argv       []string        `json:"argv"`
	EnvAdded   []string        `json:"env_added"`
	Dir        string          `json:"dir"`
	Prompt     string          `json:"prompt"`
	RawOutput  string          `json:"raw_output"`
	Text       string          `json:"result_text,omitempty"`
	Structured json.RawMessage `json:"structured_output,omitempty"`
	Usage      CallUsage       `json:"usage"`
	CostUSD    *float64        `json:"cost_usd,omitempty"`
	Error      string          `json:"error,omitempty"`
	Stderr     string          `json:"stderr_tail,omitempty"`
}

// CallUsage is a call's consumption and exit.
type CallUsage struct {
	Tokens *int `json:"tokens,omitempty"`
	// InputTokens (cache reads and writes included) and OutputTokens are
	// Tokens split as the provider reported it, when it did.
	InputTokens  *int  `json:"input_tokens,omitempty"`
	OutputTokens *int  `json:"output_tokens,omitempty"`
	NumTurns     int   `json:"num_turns,omitempty"`
	DurationMS   int64 `json:"duration_ms"`
	ExitCode     int   `json:"exit_code"`
}
