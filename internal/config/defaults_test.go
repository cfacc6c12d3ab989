package config

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/rules"
)

// TestShippedDefaults transcribes spec §2.1 plus the Go additions, reading the
// embedded file itself rather than the accessors.
func TestShippedDefaults(t *testing.T) {
	root, err := parseNode(defaultsJSON, "defaults.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string
	}{
		{"plugin_name", `"tribunal"`},
		{"storage_path", `"~/.onlooker"`},
		{"tribunal.enabled", `true`},
		{"tribunal.stop_hook.enabled", `false`},
		{"tribunal.stop_hook.tools", `"none"`},
		{"tribunal.stop_hook.skip_if_no_file_changes", `true`},
		{"tribunal.stop_hook.timeout_seconds", `60`},
		{"tribunal.stop_hook.mode", `"advisory"`},
		{"tribunal.stop_hook.max_fix_rounds", `1`},
		{"tribunal.session_start.enabled", `null`},
		{"tribunal.session_start.max_age_hours", `72`},
		{"tribunal.session.max_iterations", `3`},
		{"tribunal.session.score_threshold", `0.75`},
		{"tribunal.session.gate_policy", `"majority"`},
		{"tribunal.session.aggregation_method", `"weighted_mean"`},
		{"tribunal.session.judge_types", `["standard","adversarial"]`},
		{"tribunal.session.dissent_threshold", `0.25`},
		{"tribunal.session.judge_timeout_seconds", `600`},
		{"tribunal.session.budget_usd", `5`},
		{"tribunal.actor.model", `"claude-sonnet-4-6"`},
		{"tribunal.actor.max_output_tokens", `4096`},
		{"tribunal.actor.timeout_seconds", `1800`},
		{"tribunal.judges.model", `"claude-opus-4-7"`},
		{"tribunal.judges.max_output_tokens", `2048`},
		{"tribunal.meta_judge.model", `"claude-opus-4-7"`},
		{"tribunal.meta_judge.max_output_tokens", `1024`},
		{"tribunal.meta_judge.timeout_seconds", `600`},
		{"tribunal.rubric.default_id", `"default"`},
		{"tribunal.rubric.min_criterion_coverage", `0.6`},
		{"tribunal.rubric.builtins", `[{"id":"default","criteria":[` +
			`{"name":"correctness","weight":0.4,"min_pass":0.7},` +
			`{"name":"completeness","weight":0.3,"min_pass":0.7},` +
			`{"name":"safety","weight":0.2,"min_pass":0.8},` +
			`{"name":"clarity","weight":0.1,"min_pass":0.5}]},` +
			`{"id":"security-review","criteria":[` +
			`{"name":"vulnerabilities","weight":0.4,"min_pass":0.8},` +
			`{"name":"input_validation","weight":0.2,"min_pass":0.7},` +
			`{"name":"secrets_and_access","weight":0.2,"min_pass":0.8},` +
			`{"name":"correctness","weight":0.2,"min_pass":0.7}],` +
			`"judge_types":["standard","adversarial","security"],"score_threshold":0.8},` +
			`{"id":"answer","criteria":[` +
			`{"name":"correctness","weight":0.5,"min_pass":0.7},` +
			`{"name":"groundedness","weight":0.3,"min_pass":0.7},` +
			`{"name":"clarity","weight":0.2,"min_pass":0.5}]}]`},
		{"tribunal.tune.min_cases", `30`},
		{"tribunal.claude.path", `null`},
	}
	seen := 0
	for _, tt := range tests {
		n := root.at(strings.Split(tt.path, ".")...)
		if n == nil {
			t.Errorf("%s missing", tt.path)
			continue
		}
		seen++
		if got := render(n); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.path, got, tt.want)
		}
	}
	if leaves := countLeaves(root); leaves != seen {
		t.Errorf("defaults.json has %d keys, the table %d: document every key", leaves, seen)
	}
}

// TestBuiltinConstants holds the Go fallbacks equal to the embedded file.
func TestBuiltinConstants(t *testing.T) {
	c := Load(Sources{})
	p, err := c.Session(shippedRubric())
	if err != nil {
		t.Fatal(err)
	}
	if p.ScoreThreshold != rules.DefaultScoreThreshold || p.MaxIterations != rules.DefaultMaxIterations ||
		p.GatePolicy != rules.DefaultPolicy || p.AggregationMethod != rules.DefaultMethod ||
		p.DissentThreshold != rules.DefaultDissentThreshold || p.MinCriterionCoverage != rules.DefaultMinCriterionCoverage ||
		p.ActorModel != DefaultActorModel || p.MetaModel != DefaultMetaModel ||
		p.ActorMaxTokens != DefaultActorMaxTokens || p.JudgeMaxTokens != DefaultJudgeMaxTokens || p.MetaMaxTokens != DefaultMetaMaxTokens ||
		p.JudgeTimeout != DefaultJudgeTimeout || p.ActorTimeout != DefaultActorTimeout || p.MetaTimeout != DefaultMetaTimeout ||
		p.BudgetUSD == nil || *p.BudgetUSD != DefaultBudgetUSD {
		t.Errorf("constants drifted from defaults.json: %+v", p)
	}
	var types bytes.Buffer
	types.WriteByte('[')
	for i, r := range p.JudgeTypes {
		if i > 0 {
			types.WriteByte(',')
		}
		types.Write(r)
	}
	types.WriteByte(']')
	if types.String() != defaultSessionJudgeTypesJSON {
		t.Errorf("judge types %s, constant %s", types.String(), defaultSessionJudgeTypesJSON)
	}
	sh := c.StopHook()
	if sh.Timeout != DefaultStopHookTimeout || sh.SkipIfNoFileChanges != defaultSkipIfNoFileChanges ||
		sh.Enabled != defaultStopHookEnabled || c.JudgeModel("x") != DefaultJudgeModel ||
		c.SessionStart().MaxAge != DefaultSessionStartMaxAge || c.DefaultRubricID() != DefaultRubricID {
		t.Errorf("constants drifted from defaults.json: %+v", sh)
	}
}

// TestShippedRubricsValid: every built-in rubric passes validation, and
// the README's security-review exists.
func TestShippedRubricsValid(t *testing.T) {
	if err := rubric.Validate(shippedRubric()); err != nil {
		t.Fatal(err)
	}
	set := rubric.LoadSet(rubric.LoadOptions{Builtins: Load(Sources{}).BuiltinRubrics()})
	if !slices.Equal(set.IDs(), []string{"default", "security-review", "answer"}) {
		t.Fatalf("built-in rubrics = %v", set.IDs())
	}
	for _, r := range set.All() {
		if err := rubric.Validate(&r); err != nil {
			t.Error(err)
		}
	}
}

func countLeaves(n *node) int {
	if !n.isObject() {
		return 1
	}
	total := 0
	for _, k := range n.keys {
		total += countLeaves(n.kids[k])
	}
	return total
}
