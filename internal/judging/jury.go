package judging

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/jury"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// Options select the configuration of a Jury.
type Options struct {
	RubricID string // "" → tribunal.rubric.default_id
	// WorktreeRoot is the repository whose .claude layers apply; ""
	// outside a repository (plugin and user layers only).
	WorktreeRoot string
	// PolicyRoot, when set, is where the repository's policy files
	// (.claude settings layers, rubric overlays, evaluator schema files)
	// are read instead of WorktreeRoot: the base commit's copy when the
	// change judged is not the user's own (internal/review PolicyTree).
	PolicyRoot string
	// PolicyFile, with PolicyRoot, puts a further repository file (an
	// evaluator's schema_file) in PolicyRoot before it is read.
	PolicyFile func(rel string) error
	// Profile is --profile (spec §2.12); "" follows tribunal.profile.
	Profile string
	// MaxIterations overrides the effective max_iterations when > 0.
	MaxIterations int
	// BudgetUSD overrides the effective budget_usd when > 0 (run
	// --budget-usd).
	BudgetUSD float64
	// GatePolicy overrides the effective gate policy when set (--quorum),
	// over the rubric's and the settings'.
	GatePolicy rules.Policy
	// Rubric, when set, is the rubric object judged by instead of the
	// one RubricID names: a candidate surface of `tune` (spec §14.7),
	// checked as any rubric is.
	Rubric json.RawMessage
	// DeferSchemaCheck reads the rubric's JSON Schemas without having the
	// helper compile them: a review whose verdict may come from the cache
	// calls CheckSchemas after the lookup misses, before any model call.
	DeferSchemaCheck bool
}

// Jury is one loaded judge configuration — panel, reps, rubric, providers,
// meta-judge, trust and gate settings — from the configuration layers
// that `run` uses. It is safe to judge with from several goroutines.
type Jury struct {
	env env.Env
	cfg *config.Config
	rub *rubric.Rubric
	// evals are the rubric's evaluators, compiled at Load.
	evals    *evaluator.Set
	rubricID string
	params   config.Params
	failAt   severity.Level
	// verify is the verification step's settings (spec §6.8).
	verify   config.VerifySettings
	prov     providers
	seats    int
	families []string
	// bash is the sandbox check, made once, the first time a judge would
	// get Bash.
	bash   sync.Once
	bashOK claude.SandboxSupport
	// schemasUnchecked: loaded with DeferSchemaCheck, CheckSchemas not
	// yet passed.
	schemasUnchecked bool
}

// Load reads the configuration layers, the rubric, the effective
// parameters, the panel and its providers, exactly as a run's setup does,
// before any model call. Its error is a *ConfigError, naming the rubric
// in use when one was found (RubricID says which was asked for).
func Load(opts Options, e env.Env) (*Jury, error) {
	j := &Jury{env: e.WithDefaults()}
	if err := j.configure(opts); err != nil {
		return j, &ConfigError{Err: err}
	}
	return j, nil
}

// CheckSchemas has the helper compile the rubric's JSON Schemas when Load
// deferred it (Options.DeferSchemaCheck), once; its error is a
// *ConfigError worded as Load's. A jury loaded without deferring has
// nothing left to check.
func (j *Jury) CheckSchemas(ctx context.Context) error {
	if !j.schemasUnchecked {
		return nil
	}
	if err := j.evals.Check(ctx); err != nil {
		return &ConfigError{Err: evaluator.RubricError(j.rub, err)}
	}
	j.schemasUnchecked = false
	return nil
}

// configure loads the layers of opts.WorktreeRoot, the rubric, the
// effective parameters and the panel: everything a jury needs, nothing
// the actor or the artifacts need.
func (j *Jury) configure(opts Options) error {
	j.cfg = config.Load(config.Sources{
		PluginRoot:   j.env.Getenv("CLAUDE_PLUGIN_ROOT"),
		Home:         j.env.Home,
		WorktreeRoot: opts.WorktreeRoot,
		PolicyRoot:   opts.PolicyRoot,
		Profile:      opts.Profile,
		Warn:         j.env.Warn,
	})
	j.useRedactor()
	policy := opts.policyRoot()
	rubrics := rubric.OverlayPaths(j.env.Home, policy)
	rubrics.Builtins, rubrics.BuiltinsOrigin = j.cfg.BuiltinRubrics(), j.cfg.BuiltinRubricsSource()
	rubrics.Warn = j.env.Warn
	set := rubric.LoadSet(rubrics)
	id := opts.RubricID
	if id == "" {
		id = j.cfg.DefaultRubricID()
	}
	j.rubricID = id
	rub, ok := set.Lookup(id)
	if !ok {
		rub = nil
	}
	if opts.Rubric != nil {
		r, err := rubric.Parse(opts.Rubric)
		if err != nil {
			return err
		}
		r.Origin = "candidate rubric"
		rub, j.rubricID = &r, r.ID
	}
	params, err := j.cfg.Session(rub)
	if err != nil {
		if rub == nil {
			return unknownRubric(id, set)
		}
		return err
	}
	if opts.MaxIterations > 0 {
		params.MaxIterations = opts.MaxIterations
	}
	if opts.BudgetUSD > 0 {
		params.BudgetUSD = &opts.BudgetUSD
	}
	if opts.GatePolicy != "" {
		if err := params.SetPolicy(opts.GatePolicy); err != nil {
			return fmt.Errorf("--quorum: %w", err)
		}
	}
	j.rub, j.params = rub, params
	if err := opts.fetchSchemas(rub); err != nil {
		return err
	}
	if opts.DeferSchemaCheck {
		j.evals, err = evaluator.PrepareRubric(rub, policy, j.env.Schemas)
		j.schemasUnchecked = err == nil
	} else {
		// No context reaches Load: the helper is bounded by its own
		// timeout and dies with this process.
		j.evals, err = evaluator.ForRubric(context.Background(), rub, policy, j.env.Schemas)
	}
	if err != nil {
		return err
	}
	return j.empanelDry()
}

// policyRoot is where the repository's policy files are read.
func (o Options) policyRoot() string {
	if o.PolicyRoot != "" {
		return o.PolicyRoot
	}
	return o.WorktreeRoot
}

// fetchSchemas puts the rubric's schema files in the policy root, when
// it is not the work tree: a schema decides what an evaluator passes, so
// it is policy too, read from where the rubric was.
func (o Options) fetchSchemas(rub *rubric.Rubric) error {
	if o.PolicyRoot == "" || o.PolicyFile == nil || rub == nil {
		return nil
	}
	specs, err := rub.Evaluators()
	if err != nil {
		return nil // ForRubric reports it
	}
	for _, e := range specs {
		if e.SchemaFile != "" {
			if err := o.PolicyFile(e.SchemaFile); err != nil {
				return err
			}
		}
	}
	return nil
}

// Evaluators is the number of the rubric's evaluators.
func (j *Jury) Evaluators() int { return j.evals.Len() }

// empanelDry checks the panel: the real empanelling mints fresh ids every
// round, but an empty panel must stop a run before anything is asked
// (spec §3.2). Its warnings (degraded or refused types) are relayed here,
// once per Jury.
func (j *Jury) empanelDry() error {
	seats, err := jury.Empanel(j.params.JudgeTypes, j.cfg.JudgeModel, func() (string, error) { return "x", nil }, j.env.Relay)
	if err != nil {
		return err
	}
	if len(seats) == 0 {
		return errors.New("the jury is empty: judge_types names no judge that can sit (meta is not a jury seat)")
	}
	if err := j.setupProviders(seatTypes(seats)); err != nil {
		return err
	}
	if j.failAt, err = j.cfg.SeverityFailAt(); err != nil {
		return err
	}
	if err := j.setupVerify(); err != nil {
		return err
	}
	j.seats = len(seats)
	j.families = j.panelFamilies(seatTypes(seats))
	return nil
}

// useRedactor makes the jury's sinks and provider runners pass through
// the redactor of the configured credentials.
func (j *Jury) useRedactor() {
	if j.env.Redact == nil {
		j.env.Redact = provider.Redactor(provider.Specs(j.cfg.Providers()), j.env.Getenv, j.env.Environ)
	}
	if !j.env.Redact.Active() {
		return
	}
	j.env.Progress, j.env.Warn, j.env.Relay = j.env.Redact.Func(j.env.Progress), j.env.Redact.Func(j.env.Warn), j.env.Redact.Func(j.env.Relay)
}

// Config is the loaded configuration.
func (j *Jury) Config() *config.Config { return j.cfg }

// Rubric is the rubric in use (nil when none has the id).
func (j *Jury) Rubric() *rubric.Rubric { return j.rub }

// Params are the effective session parameters (threshold, policy, …).
func (j *Jury) Params() config.Params { return j.params }

// RubricID is the rubric asked for (or the configured default).
func (j *Jury) RubricID() string { return j.rubricID }

// Redactor scrubs the configured credentials; never nil after Load.
func (j *Jury) Redactor() *redact.Redactor { return j.env.Redact }

// SeatCount is the number of seats on the panel.
func (j *Jury) SeatCount() int { return j.seats }

// Families are the model families on the panel.
func (j *Jury) Families() []string { return j.families }

// Panel is the panel as a run's session.start names it, with placeholder
// ids.
func (j *Jury) Panel() []jury.Seat {
	seats, _ := jury.Empanel(j.params.JudgeTypes, j.seatModel, func() (string, error) { return "x", nil }, func(string) {})
	return seats
}

// Seats describes the panel: one "type=model×reps" per seat, model "" for
// the CLI's default.
func (j *Jury) Seats() []string {
	var out []string
	for _, s := range j.Panel() {
		out = append(out, fmt.Sprintf("%s=%s×%d", s.JudgeType, s.Model, j.cfg.Reps(s.JudgeType)))
	}
	return out
}

// Fingerprint identifies everything that decides how this jury judges a
// piece of work — rubric, parameters, panel, models, reps, trust settings,
// agent prompts and the judge prompt built for w — as hex SHA-256. Two
// judgements with the same fingerprint asked the same questions of the
// same models, so a stored one can stand in for a new call.
func (j *Jury) Fingerprint(w Work) string {
	h := sha256.New()
	put := func(v any) {
		b, _ := json.Marshal(v)
		h.Write(b)
		h.Write([]byte{0})
	}
	put(j.rubricID)
	if j.rub != nil {
		put(j.rub.Raw)
	}
	if src := j.evals.Sources(); len(src) > 0 {
		// Only then, so that every fingerprint of a jury without schema
		// files stays what it was.
		put(src)
	}
	put(j.params)
	put(j.prov.judges)
	put(j.prov.meta)
	put(provider.HeuristicModel) // the heuristic judge's rule set
	put(j.Seats())
	put(j.cfg.Trust())
	put(j.failAt.String())
	if s := j.cfg.MetaSkip(); s.Enabled {
		// Only when on (the light profile), as above: a jury that may go
		// without its meta-judge does not judge as one that may not.
		put(s)
	}
	if j.verify.Enabled {
		// Only when on, so that the keys of configurations without it stay.
		put(j.verify)
		put(j.prov.verify)
		put(prompts.VerifySchema())
	}
	for _, name := range []string{prompts.MetaJudgeAgent, prompts.StandardJudgeAgent, prompts.AdversarialJudgeAgent, prompts.SecurityJudgeAgent} {
		a, _ := prompts.Agent(name)
		put(a)
	}
	put(prompts.VerdictSchema(j.criterionNames()))
	put(prompts.MetaSchema())
	for _, s := range j.Panel() {
		put(prompts.JudgePrompt(prompts.JudgeInput{
			Task: w.Task, Criteria: j.Criteria(), ActorOutput: w.ActorOutput,
			Threshold: j.params.ScoreThreshold, JudgeType: s.JudgeType, Iteration: w.Iteration, Diff: shadowDiff(w.Files), Isolated: true,
			Directives: j.Directives(),
		}))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Criteria is the rubric's criteria as the prompts show them.
func (j *Jury) Criteria() []prompts.Criterion {
	var out []prompts.Criterion
	if j.rub == nil {
		return out
	}
	for _, c := range j.rub.Criteria {
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

// Directives is the rubric's directives (spec §2.6), which every judge's
// prompt and the meta-judge's carry.
func (j *Jury) Directives() []string {
	if j.rub == nil {
		return nil
	}
	return slices.Clone(j.rub.Directives)
}

// criterionNames lists the rubric's criteria by name.
func (j *Jury) criterionNames() []string {
	var names []string
	for _, c := range j.Criteria() {
		names = append(names, c.Name)
	}
	return names
}
