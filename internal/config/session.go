package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
)

// Params are the effective parameters of one /tribunal run (spec §2.4, spec §2.5).
type Params struct {
	ScoreThreshold    float64
	MaxIterations     int
	GatePolicy        rules.Policy
	AggregationMethod rules.Method
	// JudgeTypes are the entries of the effective judge_types, as given:
	// they may be null or non-strings, which jury.Empanel handles (spec §3.2).
	// A non-array value yields no entries and so an empty panel.
	JudgeTypes           []json.RawMessage
	DissentThreshold     float64
	MinCriterionCoverage float64

	ActorModel     string
	MetaModel      string
	ActorMaxTokens int
	JudgeMaxTokens int
	MetaMaxTokens  int

	JudgeTimeout time.Duration
	ActorTimeout time.Duration
	MetaTimeout  time.Duration
	// BudgetUSD caps the run's reported spend; nil means no cap.
	BudgetUSD *float64
}

// Session resolves the effective parameters for rubric r with the
// precedence explicit rubric field > tribunal.session.* > built-in default
// (spec §2.4), then validates them (spec §2.3). r is validated first (spec §2.7), so the
// error for a bad rubric is the rubric's own message. An invalid config
// value that takes effect is an error naming its key; one that a rubric
// field overrides is not looked at. An invalid min_criterion_coverage only
// warns and falls back to 0.6.
func (c *Config) Session(r *rubric.Rubric) (Params, error) {
	if err := rubric.Validate(r); err != nil {
		return Params{}, err
	}
	// Every invalid value is reported, not only the first: a user fixes
	// them all in one edit (errors.Join; Errors splits them again).
	var p Params
	var errs [5]error
	p.ScoreThreshold, errs[0] = pick(c, r.ScoreThreshold, "score_threshold", rules.DefaultScoreThreshold, rubric.ScoreThreshold)
	p.MaxIterations, errs[1] = pick(c, r.MaxIterations, "max_iterations", rules.DefaultMaxIterations, rubric.MaxIterations)
	p.GatePolicy, errs[2] = pick(c, r.GatePolicy, "gate_policy", rules.DefaultPolicy, rubric.GatePolicy)
	p.AggregationMethod, errs[3] = pick(c, r.AggregationMethod, "aggregation_method", rules.DefaultMethod, rubric.AggregationMethod)
	p.DissentThreshold, errs[4] = pick(c, nil, "dissent_threshold", rules.DefaultDissentThreshold, rubric.Unit)
	if err := errors.Join(errs[:]...); err != nil {
		return Params{}, err
	}
	p.JudgeTypes = c.judgeTypes(r)
	if err := p.CheckQuorum(); err != nil {
		return Params{}, err
	}
	p.MinCriterionCoverage = c.minCoverage()
	p.ActorModel = c.model(DefaultActorModel, "actor", "model")
	p.MetaModel = c.model(DefaultMetaModel, "meta_judge", "model")
	p.ActorMaxTokens = c.count(DefaultActorMaxTokens, "actor", "max_output_tokens")
	p.JudgeMaxTokens = c.count(DefaultJudgeMaxTokens, "judges", "max_output_tokens")
	p.MetaMaxTokens = c.count(DefaultMetaMaxTokens, "meta_judge", "max_output_tokens")
	p.JudgeTimeout = c.seconds(DefaultJudgeTimeout, "session", "judge_timeout_seconds")
	p.ActorTimeout = c.seconds(DefaultActorTimeout, "actor", "timeout_seconds")
	p.MetaTimeout = c.seconds(DefaultMetaTimeout, "meta_judge", "timeout_seconds")
	if n := c.tree.at("session", "budget_usd"); fits(n, kindPositive) {
		b, _ := number(n)
		p.BudgetUSD = &b
	}
	return p, nil
}

// CheckQuorum refuses a gate policy of at_least_<n> that the panel can
// never reach: it would block every task after its model calls were paid
// for. Session applies it to the configured policy, and a command line's
// --quorum (SetPolicy) to its own.
func (p Params) CheckQuorum() error {
	if k, ok := p.GatePolicy.AtLeastN(); ok && k > len(p.JudgeTypes) {
		return fmt.Errorf("gate_policy %s needs %d approving judges, but the panel has %d seat(s) (judge_types); lower the quorum or add judges", p.GatePolicy, k, len(p.JudgeTypes))
	}
	return nil
}

// SetPolicy overrides the effective gate policy (a command line's
// --quorum, which wins over the rubric and the settings) and checks it as
// Session checks the configured one.
func (p *Params) SetPolicy(pol rules.Policy) error {
	p.GatePolicy = pol
	return p.CheckQuorum()
}

// pick resolves one policy parameter. The rubric's field, already checked
// by rubric.Validate, wins; then tribunal.session.<key>; then def.
func pick[T any](c *Config, explicit json.RawMessage, key string, def T, decode func([]byte) (T, error)) (T, error) {
	if explicit != nil {
		return decode(explicit)
	}
	n := c.tree.at("session", key)
	if n.isNull() {
		return def, nil
	}
	v, err := decode(n.raw)
	if err != nil {
		return v, &KeyError{Key: "tribunal.session." + key, Err: fmt.Errorf("%s (from %s)", invalid("tribunal.session."+key, n, err), n.src)}
	}
	return v, nil
}

// KeyError is an invalid value of one setting; its message names the key
// and the file.
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// Errors splits an error that errors.Join made (Session's, one per invalid
// value) into its parts, so that each is reported on its own line.
func Errors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Errors(e)...)
		}
		return out
	}
	return []error{err}
}

// judgeTypes resolves judge_types. It is not validated (spec §2.7): entries
// degrade at empanel time, and a non-array value empties the panel, which
// the caller refuses; the warning says why the panel came out empty.
func (c *Config) judgeTypes(r *rubric.Rubric) []json.RawMessage {
	if r.JudgeTypes != nil {
		types := rubric.JudgeTypes(r.JudgeTypes)
		if len(types) == 0 && !isArray(r.JudgeTypes) {
			c.warn(fmt.Sprintf("rubric %s: judge_types is not an array; no judge can be seated", r.ID))
		}
		return types
	}
	if n := c.tree.at("session", "judge_types"); !n.isNull() && !n.isObject() {
		return rubric.JudgeTypes(n.raw)
	}
	return rubric.JudgeTypes(json.RawMessage(defaultSessionJudgeTypesJSON))
}

func isArray(raw json.RawMessage) bool {
	for _, b := range raw {
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return b == '['
	}
	return false
}

// minCoverage reads tribunal.rubric.min_criterion_coverage, which spec §2.3
// makes a warning, not an abort, when invalid.
func (c *Config) minCoverage() float64 {
	n := c.tree.at("rubric", "min_criterion_coverage")
	if n.isNull() {
		return rules.DefaultMinCriterionCoverage
	}
	v, err := rubric.Unit(n.raw)
	if err != nil {
		c.warn(fmt.Sprintf("%s: %s; using %s", n.src,
			invalid("tribunal.rubric.min_criterion_coverage", n, err), rules.Num(rules.DefaultMinCriterionCoverage)))
		return rules.DefaultMinCriterionCoverage
	}
	return v
}
