package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// withFields returns the shipped default rubric with extra policy fields.
func withFields(t *testing.T, fields string) *rubric.Rubric {
	t.Helper()
	raw := `{"id":"r","criteria":[{"name":"all","weight":1,"min_pass":0.5}]`
	if fields != "" {
		raw += "," + fields
	}
	r, err := rubric.Parse(json.RawMessage(raw + "}"))
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestSessionPrecedence transcribes spec §2.4 row by row: an explicit rubric
// field wins over tribunal.session.*, which wins over the built-in default.
func TestSessionPrecedence(t *testing.T) {
	type row struct {
		name    string
		rubric  string // extra rubric fields
		session string // tribunal.session members
		get     func(Params) any
		want    any
	}
	thr := func(p Params) any { return p.ScoreThreshold }
	iter := func(p Params) any { return p.MaxIterations }
	gate := func(p Params) any { return string(p.GatePolicy) }
	agg := func(p Params) any { return string(p.AggregationMethod) }
	types := func(p Params) any {
		var s []string
		for _, r := range p.JudgeTypes {
			s = append(s, string(r))
		}
		return strings.Join(s, ",")
	}
	dissent := func(p Params) any { return p.DissentThreshold }
	tests := []row{
		{"threshold: rubric wins", `"score_threshold":0.9`, `"score_threshold":0.8`, thr, 0.9},
		{"threshold: session", ``, `"score_threshold":0.8`, thr, 0.8},
		{"threshold: rubric null is absent", `"score_threshold":null`, `"score_threshold":0.8`, thr, 0.8},
		{"threshold: default", ``, ``, thr, 0.75},
		{"iterations: rubric wins", `"max_iterations":1`, `"max_iterations":5`, iter, 1},
		{"iterations: session", ``, `"max_iterations":5`, iter, 5},
		{"iterations: default", ``, ``, iter, 3},
		{"gate: rubric wins", `"gate_policy":"strict"`, `"gate_policy":"unanimous"`, gate, "strict"},
		{"gate: session", ``, `"gate_policy":"unanimous"`, gate, "unanimous"},
		{"gate: default", ``, ``, gate, "majority"},
		{"aggregation: rubric wins", `"aggregation_method":"min"`, `"aggregation_method":"median"`, agg, "min"},
		{"aggregation: session", ``, `"aggregation_method":"median"`, agg, "median"},
		{"aggregation: default", ``, ``, agg, "weighted_mean"},
		{"judge types: rubric wins", `"judge_types":["security"]`, `"judge_types":["adversarial"]`, types, `"security"`},
		{"judge types: session", ``, `"judge_types":["adversarial","standard"]`, types, `"adversarial","standard"`},
		{"judge types: session empty list", ``, `"judge_types":[]`, types, ``},
		{"judge types: default", ``, ``, types, `"standard","adversarial"`},
		{"judge types: entries kept as given", `"judge_types":[null,"meta",5]`, ``, types, `null,"meta",5`},
		{"dissent: session", ``, `"dissent_threshold":0.1`, dissent, 0.1},
		{"dissent: default", ``, ``, dissent, 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if tt.session != "" {
				e.tribunal(2, `{"session":{`+tt.session+`}}`)
			}
			p, err := e.load().Session(withFields(t, tt.rubric))
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.get(p); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestShippedRubricDoesNotPinPolicy covers spec §A.8: the built-in rubric
// carries only id and criteria, so session config takes effect with it.
func TestShippedRubricDoesNotPinPolicy(t *testing.T) {
	r := shippedRubric()
	if r.ScoreThreshold != nil || r.MaxIterations != nil || r.JudgeTypes != nil || r.GatePolicy != nil || r.AggregationMethod != nil {
		t.Fatalf("the built-in rubric pins a policy field: %s", r.Raw)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r.Raw, &fields); err != nil || len(fields) != 2 {
		t.Fatalf("the built-in rubric must have exactly id and criteria: %s", r.Raw)
	}
	e := newEnv(t)
	e.tribunal(4, `{"session":{"judge_types":["security"],"gate_policy":"strict","score_threshold":0.9,"max_iterations":2,"aggregation_method":"mean"}}`)
	c := e.load()
	set := rubric.LoadSet(rubric.LoadOptions{Builtins: c.BuiltinRubrics()})
	sel, ok := set.Lookup(c.DefaultRubricID())
	if !ok {
		t.Fatal("default rubric missing")
	}
	p, err := c.Session(sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.JudgeTypes) != 1 || string(p.JudgeTypes[0]) != `"security"` || p.GatePolicy != "strict" ||
		p.ScoreThreshold != 0.9 || p.MaxIterations != 2 || p.AggregationMethod != "mean" {
		t.Errorf("session config did not take effect: %+v", p)
	}
}

func TestSessionDefaults(t *testing.T) {
	budget := 5.0
	p, err := Load(Sources{}).Session(shippedRubric())
	if err != nil {
		t.Fatal(err)
	}
	want := Params{
		ScoreThreshold: 0.75, MaxIterations: 3, GatePolicy: "majority", AggregationMethod: "weighted_mean",
		JudgeTypes:       []json.RawMessage{json.RawMessage(`"standard"`), json.RawMessage(`"adversarial"`)},
		DissentThreshold: 0.25, MinCriterionCoverage: 0.6,
		ActorModel: "claude-sonnet-4-6", MetaModel: "claude-opus-4-7",
		ActorMaxTokens: 4096, JudgeMaxTokens: 2048, MetaMaxTokens: 1024,
		JudgeTimeout: 600 * time.Second, ActorTimeout: 1800 * time.Second, MetaTimeout: 600 * time.Second,
		BudgetUSD: &budget,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Session =\n%+v\nwant\n%+v", p, want)
	}
}

// TestSessionModelsTokensTimeouts covers spec §A.7: every model, output cap
// and timeout key takes effect.
func TestSessionModelsTokensTimeouts(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{
		"actor": {"model": "A", "max_output_tokens": 100, "timeout_seconds": 10},
		"judges": {"max_output_tokens": 200},
		"meta_judge": {"model": "M", "max_output_tokens": 300, "timeout_seconds": 30},
		"session": {"judge_timeout_seconds": 20, "budget_usd": 1.5},
		"rubric": {"min_criterion_coverage": 0.8}
	}`)
	p, err := e.load().Session(shippedRubric())
	e.noWarnings()
	if err != nil {
		t.Fatal(err)
	}
	if p.ActorModel != "A" || p.MetaModel != "M" || p.ActorMaxTokens != 100 || p.JudgeMaxTokens != 200 || p.MetaMaxTokens != 300 ||
		p.ActorTimeout != 10*time.Second || p.JudgeTimeout != 20*time.Second || p.MetaTimeout != 30*time.Second ||
		p.BudgetUSD == nil || *p.BudgetUSD != 1.5 || p.MinCriterionCoverage != 0.8 {
		t.Errorf("Session = %+v", p)
	}
}

func TestSessionEmptyModelIsUnset(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"actor":{"model":""},"meta_judge":{"model":""}}`)
	p, _ := e.load().Session(shippedRubric())
	if p.ActorModel != DefaultActorModel || p.MetaModel != DefaultMetaModel {
		t.Errorf("models = %q, %q", p.ActorModel, p.MetaModel)
	}
}

// TestSessionInvalidEffectiveValues covers spec §2.3: an invalid value that
// takes effect is an error naming its key; the same value overridden by an
// explicit rubric field is never looked at.
func TestSessionInvalidEffectiveValues(t *testing.T) {
	tests := []struct {
		session  string
		override string // rubric field that makes the session value moot; "" if none exists
		want     string
	}{
		{`"score_threshold":1.5`, `"score_threshold":0.5`, "tribunal.session.score_threshold: invalid value 1.5: must be a number in [0,1]"},
		{`"score_threshold":-0.1`, `"score_threshold":0.5`, "tribunal.session.score_threshold: invalid value -0.1: must be a number in [0,1]"},
		{`"gate_policy":"x"`, `"gate_policy":"strict"`, `tribunal.session.gate_policy: invalid value "x": must be one of strict, majority, unanimous, meta_override, any or at_least_<n>`},
		{`"gate_policy":"Majority"`, `"gate_policy":"strict"`, `tribunal.session.gate_policy: invalid value "Majority"`},
		{`"aggregation_method":"avg"`, `"aggregation_method":"mean"`, `tribunal.session.aggregation_method: invalid value "avg": must be one of mean, median, min, weighted_mean`},
		{`"max_iterations":0`, `"max_iterations":2`, "tribunal.session.max_iterations: invalid value 0: must be an integer >= 1"},
		{`"max_iterations":2.5`, `"max_iterations":2`, "tribunal.session.max_iterations: invalid value 2.5: must be an integer >= 1"},
		{`"dissent_threshold":1.2`, ``, "tribunal.session.dissent_threshold: invalid value 1.2: must be a number in [0,1]"},
		{`"dissent_threshold":-1`, ``, "tribunal.session.dissent_threshold: invalid value -1: must be a number in [0,1]"},
	}
	for _, tt := range tests {
		t.Run(tt.session, func(t *testing.T) {
			e := newEnv(t)
			path := e.tribunal(5, `{"session":{`+tt.session+`}}`)
			c := e.load()
			_, err := c.Session(shippedRubric())
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want prefix %q naming %s", err, tt.want, path)
			}
			if tt.override != "" {
				if _, err := c.Session(withFields(t, tt.override)); err != nil {
					t.Errorf("overridden by the rubric, yet: %v", err)
				}
			}
		})
	}
}

// TestSessionRejectsInvalidRubric: the rubric's own spec §2.7 message comes
// back, before any config value is considered.
func TestSessionRejectsInvalidRubric(t *testing.T) {
	c := Load(Sources{})
	if _, err := c.Session(nil); err == nil || err.Error() != "rubric is empty" {
		t.Errorf("nil rubric: %v", err)
	}
	if _, err := c.Session(withFields(t, `"gate_policy":"democracy"`)); err == nil || err.Error() != "rubric r: invalid gate_policy democracy (must be one of strict, majority, unanimous, meta_override, any or at_least_<n>)" {
		t.Errorf("democracy: %v", err)
	}
	if _, err := c.Session(withFields(t, `"max_iterations":"3"`)); err == nil ||
		err.Error() != `rubric r: max_iterations must be a number, got "3"` {
		t.Errorf(`"3": %v`, err)
	}
}

// TestMinCoverageFallback covers spec §2.3: an invalid min_criterion_coverage
// warns and falls back to 0.6 instead of aborting.
func TestMinCoverageFallback(t *testing.T) {
	tests := []struct {
		value string
		want  float64
		warns bool
	}{
		{"0.8", 0.8, false},
		{"0", 0, false},
		{"1", 1, false},
		{"1.5", 0.6, true},
		{"-0.2", 0.6, true},
	}
	for _, tt := range tests {
		e := newEnv(t)
		path := e.tribunal(2, `{"rubric":{"min_criterion_coverage":`+tt.value+`}}`)
		p, err := e.load().Session(shippedRubric())
		if err != nil {
			t.Fatal(err)
		}
		if p.MinCriterionCoverage != tt.want {
			t.Errorf("%s: coverage = %v, want %v", tt.value, p.MinCriterionCoverage, tt.want)
		}
		if got := e.hasWarning(path, "tribunal.rubric.min_criterion_coverage: invalid value "+tt.value, "using 0.6"); got != tt.warns {
			t.Errorf("%s: warnings %q", tt.value, e.warnings)
		}
	}
}

func TestSessionNonArrayRubricJudgeTypes(t *testing.T) {
	e := newEnv(t)
	c := e.load()
	p, err := c.Session(withFields(t, `"judge_types":"security"`))
	if err != nil {
		t.Fatal(err)
	}
	if p.JudgeTypes == nil || len(p.JudgeTypes) != 0 {
		t.Errorf("JudgeTypes = %v, want an empty list (empty panel)", p.JudgeTypes)
	}
	if !e.hasWarning("rubric r: judge_types is not an array") {
		t.Errorf("warnings = %q", e.warnings)
	}
}
