package config

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// TestSettingsSources: every effective value names the layer it came from,
// the last layer that set it winning, and dropped keys are not listed.
func TestSettingsSources(t *testing.T) {
	e := newEnv(t)
	user := e.tribunal(2, `{"session":{"score_threshold":0.9,"max_iterations":5}}`)
	repo := e.tribunal(4, `{"session":{"max_iterations":2},"actor":{"modle":"x"}}`)
	got := map[string]Setting{}
	for _, s := range e.load().Settings() {
		got[s.Key] = s
	}
	for key, want := range map[string]Setting{
		"tribunal.session.score_threshold": {Value: json.RawMessage(`0.9`), Source: user},
		"tribunal.session.max_iterations":  {Value: json.RawMessage(`2`), Source: repo},
		"tribunal.session.gate_policy":     {Value: json.RawMessage(`"majority"`), Source: builtinSource},
		"tribunal.session.judge_types":     {Value: json.RawMessage(`["standard","adversarial"]`), Source: builtinSource},
	} {
		s, ok := got[key]
		if !ok || string(s.Value) != string(want.Value) || s.Source != want.Source {
			t.Errorf("%s = %s from %q, want %s from %q", key, s.Value, s.Source, want.Value, want.Source)
		}
	}
	if _, ok := got["tribunal.actor.modle"]; ok {
		t.Error("an unknown key, dropped by Load, is listed as a setting")
	}
}

// TestCheck: Check finds what a run would stop on, and nothing in the
// shipped defaults.
func TestCheck(t *testing.T) {
	e := newEnv(t)
	c := e.load()
	set := rubric.LoadSet(rubric.LoadOptions{Builtins: c.BuiltinRubrics()})
	if p := c.Check(set, e.src.WorktreeRoot, nil); len(p) != 0 {
		t.Errorf("the defaults have problems: %q", p)
	}
	e.tribunal(2, `{"session":{"gate_policy":"democracy"},"severity":{"fail_at_or_above":"huge"},"rubric":{"default_id":"mine"}}`)
	c = e.load()
	bad, _ := rubric.Parse(json.RawMessage(`{"id":"half","criteria":[{"name":"a","weight":0.5,"min_pass":0.5}]}`))
	set = rubric.LoadSet(rubric.LoadOptions{Builtins: json.RawMessage(`[` + string(bad.Raw) + `]`), BuiltinsOrigin: "here"})
	p := c.Check(set, e.src.WorktreeRoot, nil)
	for _, want := range []string{
		"here: rubric half: criterion weights sum to 0.5",
		`tribunal.rubric.default_id: no rubric with id "mine"`,
		"gate_policy",
		"tribunal.severity.fail_at_or_above",
	} {
		if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("problems %q lack %q", p, want)
		}
	}
}

// TestLayers: the files Load reads, in merge order, with their presence.
func TestLayers(t *testing.T) {
	e := newEnv(t)
	user := e.tribunal(2, `{}`)
	got := Layers(e.src)
	want := []Layer{{e.path(1), false}, {user, true}, {e.path(3), false}, {e.path(4), false}, {e.path(5), false}}
	if !slices.Equal(got, want) {
		t.Errorf("Layers = %v\nwant %v", got, want)
	}
	e.src.PluginRoot, e.src.WorktreeRoot = "", ""
	if got := Layers(e.src); len(got) != 2 || got[0].Path != user {
		t.Errorf("without plugin root and repository: %v", got)
	}
}

// TestSettingsListUnsetKeys: a key with no built-in default that no layer
// sets is still listed, as null from "(unset)", and a set one is listed once.
func TestSettingsListUnsetKeys(t *testing.T) {
	e := newEnv(t)
	user := e.tribunal(2, `{"trust":{"irr_floor":0.3}}`)
	got := map[string]Setting{}
	for _, s := range e.load().Settings() {
		if _, dup := got[s.Key]; dup {
			t.Errorf("%s listed twice", s.Key)
		}
		got[s.Key] = s
	}
	for key, want := range map[string]Setting{
		"tribunal.trust.ledger_key":         {Value: json.RawMessage(`null`), Source: UnsetSource},
		"tribunal.stop_hook.escalate_model": {Value: json.RawMessage(`null`), Source: UnsetSource},
		"tribunal.severity.verify.model":    {Value: json.RawMessage(`null`), Source: UnsetSource},
		"tribunal.trust.irr_floor":          {Value: json.RawMessage(`0.3`), Source: user},
		"tribunal.claude.path":              {Value: json.RawMessage(`null`), Source: builtinSource},
	} {
		s, ok := got[key]
		if !ok || string(s.Value) != string(want.Value) || s.Source != want.Source {
			t.Errorf("%s = %s from %q (listed %v), want %s from %q", key, s.Value, s.Source, ok, want.Value, want.Source)
		}
	}
}

func TestKeyPattern(t *testing.T) {
	for key, want := range map[string]string{
		"tribunal.trust.ledger_key":              "tribunal.trust.ledger_key",
		"tribunal.judges.security.model":         "tribunal.judges.<type>.model",
		"tribunal.judges.model":                  "tribunal.judges.model",
		"tribunal.command_judges.tests.command":  "tribunal.command_judges.<name>.command",
		"tribunal.severity.verify.enabled":       "tribunal.severity.verify.enabled",
		"tribunal.gate.passed":                   "",
		"tribunal.session":                       "",
		"tribunal.judges.security":               "",
		"tribunal.session.score_threshold.extra": "",
		"session.score_threshold":                "",
	} {
		got, ok := KeyPattern(key)
		if got != want || ok != (want != "") {
			t.Errorf("KeyPattern(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}
