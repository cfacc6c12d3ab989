package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judging/jury"
)

// TestStopHookEnabled covers spec §A.1: only a JSON true enables the hook.
func TestStopHookEnabled(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{
		{"true", true},
		{"false", false},
		{"null", false},
		{`"true"`, false},
		{"1", false},
		{`{}`, false},
	}
	for _, tt := range tests {
		e := newEnv(t)
		e.tribunal(2, `{"stop_hook":{"enabled":`+tt.value+`}}`)
		if got := e.load().StopHook().Enabled; got != tt.want {
			t.Errorf("enabled = %s: Enabled = %v, want %v", tt.value, got, tt.want)
		}
	}
	if Load(Sources{}).StopHook().Enabled {
		t.Error("the stop hook must be off by default")
	}
}

func TestStopHookSettings(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"stop_hook":{"skip_if_no_file_changes":false,"timeout_seconds":0.5,"mode":"fix","max_fix_rounds":2},
		"session":{"score_threshold":0.9},
		"judges":{"model":"J","standard":{"model":"S"},"max_output_tokens":1000}}`)
	got := e.load().StopHook()
	e.noWarnings()
	want := StopHookSettings{SkipIfNoFileChanges: false, ScoreThreshold: 0.9, Model: "S", MaxOutputTokens: 1000, Timeout: 500 * time.Millisecond, Mode: StopModeFix, MaxFixRounds: 2, EscalateBelow: DefaultEscalateBelow}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StopHook = %+v, want %+v", got, want)
	}
	def := Load(Sources{}).StopHook()
	wantDef := StopHookSettings{Enabled: false, SkipIfNoFileChanges: true, ScoreThreshold: 0.75, Model: "claude-opus-4-7", MaxOutputTokens: 2048, Timeout: 60 * time.Second, Mode: StopModeAdvisory, MaxFixRounds: 1, EscalateBelow: DefaultEscalateBelow}
	if !reflect.DeepEqual(def, wantDef) {
		t.Errorf("default StopHook = %+v, want %+v", def, wantDef)
	}
}

// TestStopHookCascadeAndBudget: stop_hook.model picks the cheap model the
// cascade starts with, escalate_model the stronger one, escalate_below the
// confidence under which a pass is asked again; daily_budget_usd caps the
// day. A budget or bound that is not a number is a warning and no cap.
func TestStopHookCascadeAndBudget(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"stop_hook":{"model":"cheap","escalate_model":"strong","escalate_below":0.8,"daily_budget_usd":2.5}}`)
	got := e.load().StopHook()
	e.noWarnings()
	if got.Model != "cheap" || got.EscalateModel != "strong" || got.EscalateBelow != 0.8 || got.DailyBudgetUSD != 2.5 {
		t.Errorf("StopHook = %+v", got)
	}
	for _, bad := range []string{`"5"`, `0`, `-1`, `true`} {
		e := newEnv(t)
		e.tribunal(2, `{"stop_hook":{"daily_budget_usd":`+bad+`,"escalate_below":"x"}}`)
		got := e.load().StopHook()
		if got.DailyBudgetUSD != 0 || got.EscalateBelow != DefaultEscalateBelow {
			t.Errorf("daily_budget_usd %s: %+v", bad, got)
		}
		if !e.hasWarning("daily_budget_usd", "a number > 0") {
			t.Errorf("daily_budget_usd %s: no warning in %q", bad, e.warnings)
		}
	}
}

// TestStopHookThreshold covers spec §2.3's Stop-hook rule: an invalid threshold
// falls back to 0.75 with a warning naming the key and the file.
func TestStopHookThreshold(t *testing.T) {
	tests := []struct {
		value string
		want  float64
		warns bool
	}{
		{"0.9", 0.9, false},
		{"0", 0, false},
		{"1", 1, false},
		{"1.5", 0.75, true},
		{"-0.1", 0.75, true},
		{"1e400", 0.75, true},
	}
	for _, tt := range tests {
		e := newEnv(t)
		path := e.tribunal(4, `{"session":{"score_threshold":`+tt.value+`}}`)
		got := e.load().StopHook().ScoreThreshold
		if got != tt.want {
			t.Errorf("threshold %s: got %v, want %v", tt.value, got, tt.want)
		}
		warned := e.hasWarning(path, "tribunal.session.score_threshold: invalid value "+tt.value, "using 0.75")
		if warned != tt.warns || len(e.warnings) != map[bool]int{false: 0, true: 1}[tt.warns] {
			t.Errorf("threshold %s: warnings %q", tt.value, e.warnings)
		}
	}
}

func TestSessionStart(t *testing.T) {
	tests := []struct {
		stopHook, sessionStart string
		want                   bool
	}{
		{"false", "null", false},
		{"true", "null", true},
		{"true", "false", false},
		{"false", "true", true},
		{"true", "true", true},
	}
	for _, tt := range tests {
		e := newEnv(t)
		e.tribunal(2, fmt.Sprintf(`{"stop_hook":{"enabled":%s},"session_start":{"enabled":%s}}`, tt.stopHook, tt.sessionStart))
		if got := e.load().SessionStart().Enabled; got != tt.want {
			t.Errorf("stop_hook %s, session_start %s: Enabled = %v, want %v", tt.stopHook, tt.sessionStart, got, tt.want)
		}
	}
	if got := Load(Sources{}).SessionStart(); got != (SessionStartSettings{Enabled: false, MaxAge: 72 * time.Hour}) {
		t.Errorf("default SessionStart = %+v", got)
	}
	e := newEnv(t)
	e.tribunal(2, `{"session_start":{"max_age_hours":1.5}}`)
	if got := e.load().SessionStart().MaxAge; got != 90*time.Minute {
		t.Errorf("MaxAge = %v, want 1h30m", got)
	}
}

// TestJudgeModel transcribes spec §2.5: per-type model, else judges.model, else
// the built-in default, an empty string counting as unset at each step.
func TestJudgeModel(t *testing.T) {
	tests := []struct {
		name, judges, typ, want string
	}{
		{"defaults", `{}`, "standard", "claude-opus-4-7"},
		{"per-type wins", `{"model":"J","security":{"model":"S"}}`, "security", "S"},
		{"other types use judges.model", `{"model":"J","security":{"model":"S"}}`, "adversarial", "J"},
		{"empty per-type is unset", `{"model":"J","security":{"model":""}}`, "security", "J"},
		{"null per-type is unset", `{"model":"J","security":{"model":null}}`, "security", "J"},
		{"per-type object without model", `{"model":"J","security":{}}`, "security", "J"},
		{"empty judges.model is unset", `{"model":""}`, "standard", "claude-opus-4-7"},
		{"empty both", `{"model":"","standard":{"model":""}}`, "standard", "claude-opus-4-7"},
		{"type named like a key", `{"model":"J"}`, "model", "J"},
		{"unknown type name", `{"my-type":{"model":"M"}}`, "my-type", "M"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.tribunal(2, `{"judges":`+tt.judges+`}`)
			if got := e.load().JudgeModel(tt.typ); got != tt.want {
				t.Errorf("JudgeModel(%q) = %q, want %q", tt.typ, got, tt.want)
			}
			e.noWarnings()
		})
	}
}

// TestDegradedSeatUsesStandardModel: a maintainability seat degrades to
// standard and so consults judges.standard.model (spec §2.5, spec §3.1).
func TestDegradedSeatUsesStandardModel(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"judges":{"standard":{"model":"S"},"maintainability":{"model":"never"},"security":{"model":"X"}}}`)
	c := e.load()
	types := []json.RawMessage{json.RawMessage(`"maintainability"`), json.RawMessage(`"security"`), json.RawMessage(`"domain"`)}
	seats, err := jury.Empanel(types, c.JudgeModel, func() (string, error) { return "id", nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"S", "X", "S"} {
		if seats[i].Model != want {
			t.Errorf("seat %d (%s) model = %q, want %q", i, seats[i].RequestedType, seats[i].Model, want)
		}
	}
}

// TestClaudePathTrustBoundary: only the plugin defaults and the user's own
// settings may choose the claude executable; a repository may not.
func TestClaudePathTrustBoundary(t *testing.T) {
	tests := []struct {
		name   string
		layers map[int]string
		want   string
		warned []int // layers whose file must be named in the warning
	}{
		{"default", nil, "", nil},
		{"user settings", map[int]string{2: `"/opt/claude"`}, "/opt/claude", nil},
		{"user local wins over user", map[int]string{2: `"/opt/a"`, 3: `"/opt/b"`}, "/opt/b", nil},
		{"plugin config", map[int]string{1: `"/plugin/claude"`}, "/plugin/claude", nil},
		{"repo settings ignored", map[int]string{2: `"/opt/claude"`, 4: `"/tmp/evil"`}, "/opt/claude", []int{4}},
		{"repo local ignored", map[int]string{5: `"/tmp/evil"`}, "", []int{5}},
		{"both repo layers ignored", map[int]string{3: `"/opt/claude"`, 4: `"/tmp/a"`, 5: `"/tmp/b"`}, "/opt/claude", []int{4, 5}},
		{"repo empty string is still refused", map[int]string{2: `"/opt/claude"`, 4: `""`}, "/opt/claude", []int{4}},
		{"repo null says nothing", map[int]string{2: `"/opt/claude"`, 4: `null`}, "/opt/claude", nil},
		{"empty string means PATH", map[int]string{2: `""`}, "", nil},
		{"home expansion", map[int]string{2: `"~/bin/claude"`}, "HOME/bin/claude", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for layer, v := range tt.layers {
				body := `{"claude":{"path":` + v + `},"actor":{"model":"A` + string(rune('0'+layer)) + `"}}`
				if layer == 1 {
					e.write(1, `{"tribunal":`+body+`}`)
				} else {
					e.tribunal(layer, body)
				}
			}
			c := e.load()
			want := tt.want
			if len(want) > 4 && want[:4] == "HOME" {
				want = filepath.Join(e.src.Home, want[5:])
			}
			if got := c.ClaudePath(); got != want {
				t.Errorf("ClaudePath = %q, want %q", got, want)
			}
			if len(e.warnings) != len(tt.warned) {
				t.Errorf("warnings = %q, want %d", e.warnings, len(tt.warned))
			}
			for _, l := range tt.warned {
				if !e.hasWarning(e.path(l), "repository settings may not choose the claude executable", `"tribunal.claude.path"`) {
					t.Errorf("no warning naming %s: %q", e.path(l), e.warnings)
				}
			}
			if tt.warned != nil {
				// The refused key costs the repository nothing else.
				top := tt.warned[len(tt.warned)-1]
				if got := c.model("", "actor", "model"); got != "A"+string(rune('0'+top)) {
					t.Errorf("actor model = %q: the repository layer's other keys were dropped", got)
				}
			}
		})
	}
}

func TestDefaultRubricID(t *testing.T) {
	for value, want := range map[string]string{`"review"`: "review", `""`: "default", `null`: "default"} {
		e := newEnv(t)
		e.tribunal(2, `{"rubric":{"default_id":`+value+`}}`)
		if got := e.load().DefaultRubricID(); got != want {
			t.Errorf("default_id %s: got %q, want %q", value, got, want)
		}
	}
}

func TestBuiltinRubrics(t *testing.T) {
	e := newEnv(t)
	e.tribunal(3, `{"rubric":{"builtins":[{"id":"mine","criteria":[]}]}}`)
	if got := string(e.load().BuiltinRubrics()); got != `[{"id":"mine","criteria":[]}]` {
		t.Errorf("BuiltinRubrics = %s, want the replacement array", got)
	}
	e.tribunal(3, `{"rubric":{"builtins":null}}`)
	if got := e.load().BuiltinRubrics(); !json.Valid(got) || len(got) < 10 {
		t.Errorf("null must keep the built-ins: %s", got)
	}
}

func TestRawIsValidMergedJSON(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"session":{"judge_types":["security"]},"judges":{"security":{"model":"S"}}}`)
	raw := e.load().Raw()
	var v struct {
		Session struct {
			JudgeTypes []string `json:"judge_types"`
			GatePolicy string   `json:"gate_policy"`
		} `json:"session"`
		Judges map[string]json.RawMessage `json:"judges"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("Raw is not JSON: %v\n%s", err, raw)
	}
	if len(v.Session.JudgeTypes) != 1 || v.Session.GatePolicy != "majority" || string(v.Judges["security"]) != `{"model":"S"}` {
		t.Errorf("Raw = %s", raw)
	}
}

func TestStopHookMode(t *testing.T) {
	tests := []struct {
		value string
		want  string
		warns bool
	}{
		{`"fix"`, StopModeFix, false},
		{`"advisory"`, StopModeAdvisory, false},
		{`null`, StopModeAdvisory, false},
		{`"Fix"`, StopModeAdvisory, true},
		{`"block"`, StopModeAdvisory, true},
	}
	for _, tt := range tests {
		e := newEnv(t)
		e.tribunal(2, `{"stop_hook":{"mode":`+tt.value+`}}`)
		if got := e.load().StopHook().Mode; got != tt.want {
			t.Errorf("mode %s: got %q, want %q", tt.value, got, tt.want)
		}
		if (len(e.warnings) > 0) != tt.warns {
			t.Errorf("mode %s: warnings %q, want some: %v", tt.value, e.warnings, tt.warns)
		}
	}
}
