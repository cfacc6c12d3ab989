package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/warncap"
)

func TestLoadDefaultsOnly(t *testing.T) {
	var warnings []string
	for _, src := range []Sources{{}, newEnv(t).src} {
		src.Warn = func(s string) { warnings = append(warnings, s) }
		c := Load(src)
		var top struct{ Tribunal json.RawMessage }
		if err := json.Unmarshal(defaultsJSON, &top); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, top.Tribunal); err != nil {
			t.Fatal(err)
		}
		if got := string(c.Raw()); got != want.String() {
			t.Errorf("Raw =\n%s\nwant\n%s", got, want.String())
		}
	}
	if len(warnings) != 0 {
		t.Errorf("the defaults warned: %q", warnings)
	}
}

// TestLayerPrecedence writes layers 1..k, each setting judges.model, and
// expects layer k to win: each layer wins over every earlier one.
func TestLayerPrecedence(t *testing.T) {
	for k := 1; k <= 5; k++ {
		t.Run(filepath.Base(newEnv(t).path(k))+"-layer-"+string(rune('0'+k)), func(t *testing.T) {
			e := newEnv(t)
			for i := 1; i <= k; i++ {
				e.tribunal(i, `{"judges":{"model":"L`+string(rune('0'+i))+`"}}`)
			}
			c := e.load()
			e.noWarnings()
			if got, want := c.JudgeModel("standard"), "L"+string(rune('0'+k)); got != want {
				t.Errorf("judge model = %q, want %q", got, want)
			}
		})
	}
}

// TestEachLayerAlone checks that every layer is read at all.
func TestEachLayerAlone(t *testing.T) {
	for k := 1; k <= 5; k++ {
		e := newEnv(t)
		e.tribunal(k, `{"actor":{"model":"only"}}`)
		p, err := e.load().Session(defaultRubric(t))
		if err != nil || p.ActorModel != "only" {
			t.Errorf("layer %d alone: actor model %q, err %v", k, p.ActorModel, err)
		}
	}
}

func TestLayersDeepMerge(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"actor":{"model":"A"},"session":{"max_iterations":5}}`)
	e.tribunal(3, `{"session":{"judge_types":["security"]}}`)
	e.tribunal(4, `{"stop_hook":{"enabled":true}}`)
	e.tribunal(5, `{"judges":{"security":{"model":"S"}},"session":{"max_iterations":null}}`)
	c := e.load()
	e.noWarnings()
	p, err := c.Session(defaultRubric(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.ActorModel != "A" || p.MaxIterations != 5 || !c.StopHook().Enabled || c.JudgeModel("security") != "S" {
		t.Errorf("a layer was lost: %+v, stop hook %+v, security model %q", p, c.StopHook(), c.JudgeModel("security"))
	}
	if string(p.JudgeTypes[0]) != `"security"` || len(p.JudgeTypes) != 1 {
		t.Errorf("judge_types = %s, want the replacement list", p.JudgeTypes)
	}
	if p.GatePolicy != "majority" || p.ActorMaxTokens != 4096 {
		t.Errorf("defaults lost: %+v", p)
	}
}

// TestPluginLayerIsWholeFile covers spec §2.2 rule 6: the plugin's config.json
// is merged over the embedded defaults, not instead of them.
func TestPluginLayerIsWholeFile(t *testing.T) {
	e := newEnv(t)
	e.write(1, `{"plugin_name":"tribunal","tribunal":{"session":{"max_iterations":5}}}`)
	p, err := e.load().Session(defaultRubric(t))
	e.noWarnings()
	if err != nil || p.MaxIterations != 5 || p.GatePolicy != "majority" || p.JudgeMaxTokens != 2048 {
		t.Errorf("params = %+v, err = %v", p, err)
	}
}

func TestShippedConfigJSONAsPluginLayer(t *testing.T) {
	data, err := os.ReadFile("../../config.json")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.write(1, string(data))
	got := e.load().Raw()
	e.noWarnings()
	if want := Load(Sources{}).Raw(); !bytes.Equal(got, want) {
		t.Errorf("plugin config.json changed the defaults:\n%s\n%s", got, want)
	}
}

// TestConfigJSONIsDefaultsCopy guards the repository's config.json, which
// the plugin ships, against drifting from the embedded defaults.
func TestConfigJSONIsDefaultsCopy(t *testing.T) {
	shipped, err := os.ReadFile("../../config.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shipped, defaultsJSON) {
		t.Fatal("config.json differs from internal/config/defaults.json; copy defaults.json over it")
	}
	if !bytes.Equal(DefaultsJSON(), defaultsJSON) {
		t.Fatal("DefaultsJSON does not return the embedded file")
	}
}

func TestSettingsLayersReadOnlyTribunal(t *testing.T) {
	tests := []struct{ name, content string }{
		{"other keys ignored silently", `{"model":"opus","permissions":{"allow":[]},"hooks":5,"tribunal":{"actor":{"model":"A"}}}`},
		{"no tribunal key", `{"model":"opus"}`},
		{"tribunal null", `{"tribunal":null,"model":"opus"}`},
		{"empty object", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.write(2, tt.content)
			c := e.load()
			e.noWarnings()
			raw := string(c.Raw())
			if strings.Contains(raw, "opus\"") || strings.Contains(raw, "permissions") {
				t.Errorf("a non-tribunal key leaked into the config: %s", raw)
			}
		})
	}
}

// layerMarkers gives each layer its own key, so a test can see which
// layers applied.
var layerMarkers = []struct {
	body string
	read func(*Config) string
	def  string
}{
	1: {`{"actor":{"model":"L1"}}`, func(c *Config) string { return c.model(DefaultActorModel, "actor", "model") }, DefaultActorModel},
	2: {`{"meta_judge":{"model":"L2"}}`, func(c *Config) string { return c.model(DefaultMetaModel, "meta_judge", "model") }, DefaultMetaModel},
	3: {`{"judges":{"model":"L3"}}`, func(c *Config) string { return c.JudgeModel("adversarial") }, DefaultJudgeModel},
	4: {`{"rubric":{"default_id":"L4"}}`, func(c *Config) string { return c.DefaultRubricID() }, DefaultRubricID},
	5: {`{"judges":{"security":{"model":"L5"}}}`, func(c *Config) string { return c.JudgeModel("security") }, "L3"},
}

// TestMalformedLayers covers spec §2.2 rules 2 and 5 and spec §A.22: each kind of
// broken file, at each layer, is skipped with one warning naming it while
// every other layer still applies.
func TestMalformedLayers(t *testing.T) {
	big := `{"tribunal":{},"pad":"` + strings.Repeat("x", maxFileSize) + `"}`
	kinds := []struct {
		name    string
		content string
		special string // "dir", "fifo" or "devzero": make the path that instead of a file
		warn    string
	}{
		{"syntax error", "{\"tribunal\": {\n  \"a\": 1,\n}}", "", "invalid JSON at line 3, column 1"},
		{"empty file", "", "", "invalid JSON at line 1, column 1"},
		{"trailing garbage", `{"tribunal":{}} x`, "", "invalid JSON"},
		{"top level array", `[{"tribunal":{}}]`, "", "top level is not a JSON object; file ignored"},
		{"top level string", `"tribunal"`, "", "top level is not a JSON object; file ignored"},
		{"top level number", `42`, "", "top level is not a JSON object; file ignored"},
		{"top level null", `null`, "", "top level is not a JSON object; file ignored"},
		{"tribunal is a string", `{"tribunal":"on"}`, "", `"tribunal" is not an object; file ignored`},
		{"tribunal is an array", `{"tribunal":[{"judges":{"model":"x"}}]}`, "", `"tribunal" is not an object; file ignored`},
		{"tribunal is a number", `{"tribunal":1}`, "", `"tribunal" is not an object; file ignored`},
		{"tribunal is false", `{"tribunal":false}`, "", `"tribunal" is not an object; file ignored`},
		{"oversized", big, "", "larger than 1048576 bytes; file ignored"},
		{"nested too deeply", `{"tribunal":{},"x":` + strings.Repeat(`{"a":`, 200000), "", "nesting too deep: more than 1000 levels at line 1, column 5015; file ignored"},
		{"a directory", "", "dir", "not a regular file (a directory); file ignored"},
		{"a FIFO", "", "fifo", "not a regular file (a named pipe); file ignored"},
		{"a link to a device", "", "devzero", "not a regular file (a character device); file ignored"},
	}
	for _, kind := range kinds {
		for bad := 1; bad <= 5; bad++ {
			t.Run(kind.name+"/layer "+string(rune('0'+bad)), func(t *testing.T) {
				e := newEnv(t)
				for i := 1; i <= 5; i++ {
					if i != bad {
						e.tribunal(i, layerMarkers[i].body)
					}
				}
				path := e.path(bad)
				if kind.special == "" {
					e.write(bad, kind.content)
				} else {
					makeSpecial(t, path, kind.special)
				}
				c := e.load()
				if len(e.warnings) != 1 || !e.hasWarning(path+": ", kind.warn) {
					t.Errorf("warnings = %q, want one naming %s with %q", e.warnings, path, kind.warn)
				}
				for i := 1; i <= 5; i++ {
					want := "L" + string(rune('0'+i))
					if i == bad {
						want = layerMarkers[i].def
					}
					if got := layerMarkers[i].read(c); got != want {
						t.Errorf("layer %d marker = %q, want %q", i, got, want)
					}
				}
			})
		}
	}
}

func TestUnreadableLayer(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files regardless of their mode")
	}
	e := newEnv(t)
	p := e.tribunal(2, `{"actor":{"model":"A"}}`)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	e.load()
	if !e.hasWarning(p, "permission denied", "file ignored") {
		t.Errorf("warnings = %q", e.warnings)
	}
}

// TestAbsentRoots: with no home or no repository, the matching layers do
// not exist, whatever files lie around.
func TestAbsentRoots(t *testing.T) {
	e := newEnv(t)
	for i := 1; i <= 5; i++ {
		e.tribunal(i, `{"rubric":{"default_id":"from-`+string(rune('0'+i))+`"}}`)
	}
	tests := []struct {
		name  string
		clear func(*Sources)
		want  string
	}{
		{"all roots", func(*Sources) {}, "from-5"},
		{"no repository: layers 4-5 absent", func(s *Sources) { s.WorktreeRoot = "" }, "from-3"},
		{"no home: layers 2-3 absent", func(s *Sources) { s.WorktreeRoot, s.Home = "", "" }, "from-1"},
		{"no plugin root: embedded defaults", func(s *Sources) { s.WorktreeRoot, s.Home, s.PluginRoot = "", "", "" }, "default"},
		{"home but no repository", func(s *Sources) { s.PluginRoot, s.WorktreeRoot = "", "" }, "from-3"},
	}
	for _, tt := range tests {
		src := e.src
		tt.clear(&src)
		if got := Load(src).DefaultRubricID(); got != tt.want {
			t.Errorf("%s: default_id = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnknownKeys(t *testing.T) {
	e := newEnv(t)
	user := e.tribunal(2, `{
		"enabld": false,
		"sesion": {"max_iterations": 1, "deeper": {"x": 1}},
		"session": {"gate_polcy": "strict", "max_iterations": 4},
		"judges": {"security": {"model": "S", "temperature": 1}, "my-custom": {"model": "C"}}
	}`)
	plugin := e.write(1, `{"plugin_name":"tribunal","storage_path":"~/.onlooker","foo":1,"tribunal":{"stop_hook":{"enable":true}}}`)
	c := e.load()
	want := []string{
		plugin + `: unknown key "foo"`,
		plugin + `: unknown key "tribunal.stop_hook.enable" (did you mean "enabled"?)`,
		user + `: unknown key "tribunal.enabld" (did you mean "enabled"?)`,
		user + `: unknown key "tribunal.sesion" (did you mean "session"?)`,
		user + `: unknown key "tribunal.session.gate_polcy" (did you mean "gate_policy"?)`,
		user + `: unknown key "tribunal.judges.security.temperature"`,
	}
	if strings.Join(e.warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings =\n%s\nwant\n%s", strings.Join(e.warnings, "\n"), strings.Join(want, "\n"))
	}
	if c.JudgeModel("security") != "S" || c.JudgeModel("my-custom") != "C" {
		t.Error("per-type judge models must be known for any type name")
	}
	p, err := c.Session(defaultRubric(t))
	if err != nil || p.MaxIterations != 4 {
		t.Errorf("known keys beside unknown ones must apply: %+v, %v", p, err)
	}
	if raw := string(c.Raw()); strings.Contains(raw, "sesion") || strings.Contains(raw, "temperature") {
		t.Errorf("unknown keys leaked into Raw: %s", raw)
	}
}

// TestMistypedKeys: a known key with the wrong JSON type warns, naming the
// file and the key, and is treated as unset in that layer, so the default
// applies. The file's other keys still apply.
func TestMistypedKeys(t *testing.T) {
	tests := []struct {
		key, value, kind string
		check            func(*Config) bool
	}{
		{"stop_hook.enabled", `"yes"`, "a boolean", func(c *Config) bool { return !c.StopHook().Enabled }},
		{"stop_hook.enabled", `1`, "a boolean", func(c *Config) bool { return !c.StopHook().Enabled }},
		{"stop_hook.skip_if_no_file_changes", `"false"`, "a boolean", func(c *Config) bool { return c.StopHook().SkipIfNoFileChanges }},
		{"stop_hook.timeout_seconds", `0`, "a number > 0", func(c *Config) bool { return c.StopHook().Timeout == DefaultStopHookTimeout }},
		{"stop_hook.timeout_seconds", `"60"`, "a number > 0", func(c *Config) bool { return c.StopHook().Timeout == DefaultStopHookTimeout }},
		{"session_start.enabled", `"yes"`, "a boolean", func(c *Config) bool { return !c.SessionStart().Enabled }},
		{"session_start.max_age_hours", `-1`, "a number > 0", func(c *Config) bool { return c.SessionStart().MaxAge == DefaultSessionStartMaxAge }},
		{"session", `"strict"`, "an object", func(c *Config) bool { return session(c).GatePolicy == "majority" }},
		{"session.judge_types", `"security"`, "an array", func(c *Config) bool { return len(session(c).JudgeTypes) == 2 }},
		{"session.judge_types", `{"0":"security"}`, "an array", func(c *Config) bool { return len(session(c).JudgeTypes) == 2 }},
		{"session.score_threshold", `"0.9"`, "a number", func(c *Config) bool { return session(c).ScoreThreshold == 0.75 }},
		{"session.max_iterations", `"3"`, "a number", func(c *Config) bool { return session(c).MaxIterations == 3 }},
		{"session.gate_policy", `1`, "a string", func(c *Config) bool { return session(c).GatePolicy == "majority" }},
		{"session.aggregation_method", `["mean"]`, "a string", func(c *Config) bool { return session(c).AggregationMethod == "weighted_mean" }},
		{"session.dissent_threshold", `true`, "a number", func(c *Config) bool { return session(c).DissentThreshold == 0.25 }},
		{"session.budget_usd", `0`, "a number > 0", func(c *Config) bool { b := session(c).BudgetUSD; return b != nil && *b == DefaultBudgetUSD }},
		{"session.budget_usd", `"5"`, "a number > 0", func(c *Config) bool { b := session(c).BudgetUSD; return b != nil && *b == DefaultBudgetUSD }},
		{"session.judge_timeout_seconds", `-1`, "a number > 0", func(c *Config) bool { return session(c).JudgeTimeout == DefaultJudgeTimeout }},
		{"actor.model", `5`, "a string", func(c *Config) bool { return session(c).ActorModel == DefaultActorModel }},
		{"actor.max_output_tokens", `2.5`, "an integer >= 1", func(c *Config) bool { return session(c).ActorMaxTokens == DefaultActorMaxTokens }},
		{"actor.timeout_seconds", `"1800"`, "a number > 0", func(c *Config) bool { return session(c).ActorTimeout == DefaultActorTimeout }},
		{"judges", `"opus"`, "an object", func(c *Config) bool { return c.JudgeModel("standard") == DefaultJudgeModel }},
		{"judges.model", `5`, "a string", func(c *Config) bool { return c.JudgeModel("standard") == DefaultJudgeModel }},
		{"judges.max_output_tokens", `0`, "an integer >= 1", func(c *Config) bool { return c.StopHook().MaxOutputTokens == DefaultJudgeMaxTokens }},
		{"judges.max_output_tokens", `"2048"`, "an integer >= 1", func(c *Config) bool { return c.StopHook().MaxOutputTokens == DefaultJudgeMaxTokens }},
		{"judges.max_output_tokens", `1e12`, "an integer >= 1", func(c *Config) bool { return c.StopHook().MaxOutputTokens == DefaultJudgeMaxTokens }},
		{"judges.security", `"opus"`, "an object", func(c *Config) bool { return c.JudgeModel("security") == DefaultJudgeModel }},
		{"judges.security.model", `["opus"]`, "a string", func(c *Config) bool { return c.JudgeModel("security") == DefaultJudgeModel }},
		{"meta_judge.max_output_tokens", `-3`, "an integer >= 1", func(c *Config) bool { return session(c).MetaMaxTokens == DefaultMetaMaxTokens }},
		{"meta_judge.timeout_seconds", `false`, "a number > 0", func(c *Config) bool { return session(c).MetaTimeout == DefaultMetaTimeout }},
		{"rubric.builtins", `{"id":"default"}`, "an array", func(c *Config) bool { return bytes.Contains(c.BuiltinRubrics(), []byte("correctness")) }},
		{"rubric.default_id", `7`, "a string", func(c *Config) bool { return c.DefaultRubricID() == "default" }},
		{"rubric.min_criterion_coverage", `"0.6"`, "a number", func(c *Config) bool { return session(c).MinCriterionCoverage == 0.6 }},
		{"claude.path", `5`, "a string", func(c *Config) bool { return c.ClaudePath() == "" }},
		{"claude", `"/bin/claude"`, "an object", func(c *Config) bool { return c.ClaudePath() == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			e := newEnv(t)
			path := e.tribunal(3, nest(tt.key, tt.value, `"rubric":{"default_id":"kept"}`))
			c := e.load()
			want := path + `: key "tribunal.` + tt.key + `" must be ` + tt.kind + `, got ` + tt.value + `; ignored`
			if len(e.warnings) != 1 || e.warnings[0] != want {
				t.Errorf("warnings = %q\nwant [%q]", e.warnings, want)
			}
			if !tt.check(c) {
				t.Error("the value did not fall back to the default")
			}
			if !strings.HasPrefix(tt.key, "rubric") && c.DefaultRubricID() != "kept" {
				t.Error("the file's other keys were dropped")
			}
		})
	}
}

// TestMistypedKeyFallsBackToLowerLayer: "ignored" means unset in that
// layer, so a valid value from a lower layer still applies.
func TestMistypedKeyFallsBackToLowerLayer(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"stop_hook":{"enabled":true}}`)
	e.tribunal(4, `{"stop_hook":{"enabled":"no"}}`)
	if !e.load().StopHook().Enabled {
		t.Error("the user's valid true was lost to a mistyped repository value")
	}
}

// nest builds a tribunal object setting a dotted key to a JSON value,
// plus extra members at the top.
func nest(key, value, extra string) string {
	parts := strings.Split(key, ".")
	body := value
	for i := len(parts) - 1; i >= 0; i-- {
		body = `{"` + parts[i] + `":` + body + `}`
	}
	if strings.HasPrefix(key, "rubric") {
		return body
	}
	return body[:len(body)-1] + "," + extra + "}"
}

func session(c *Config) Params {
	p, err := c.Session(shippedRubric())
	if err != nil {
		panic(err)
	}
	return p
}

// TestWarningFlood: 40,000 unknown keys in one file cost the first few
// warnings and one line counting the rest, not 40,000 lines on every
// hook run; the other files still warn on their own.
func TestWarningFlood(t *testing.T) {
	e := newEnv(t)
	var b strings.Builder
	b.WriteString(`{"tribunal":{`)
	for i := range 40000 {
		fmt.Fprintf(&b, `"k%d":1,`, i)
	}
	b.WriteString(`"stop_hook":{"enabled":true}}}`)
	p := e.write(4, b.String())
	other := e.tribunal(2, `{"nope":1}`)
	c := e.load()
	if len(e.warnings) != warncap.Max+2 {
		t.Fatalf("%d warnings, want %d: %q", len(e.warnings), warncap.Max+2, e.warnings[:min(len(e.warnings), 20)])
	}
	if !e.hasWarning(other, `unknown key "tribunal.nope"`) {
		t.Errorf("the other file's warning is missing: %q", e.warnings)
	}
	if !e.hasWarning(p + ": … and 39990 more warning(s) like these") {
		t.Errorf("no count line: %q", e.warnings)
	}
	if !c.StopHook().Enabled {
		t.Error("the file's valid keys must still apply")
	}
}

// TestLoadDoesNotShareTheDefaults: the embedded defaults are parsed once
// and each Load merges into its own copy, so what one Load's layers set
// is not in the next Load's configuration.
func TestLoadDoesNotShareTheDefaults(t *testing.T) {
	home := t.TempDir()
	testkit.WriteFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{"tribunal":{"claude":{"path":"/opt/claude"},"rubric":{"default_id":"mine"}}}`)
	first := Load(Sources{Home: home})
	if got := first.ClaudePath(); got != "/opt/claude" || first.DefaultRubricID() != "mine" {
		t.Fatalf("ClaudePath = %q, DefaultRubricID = %q, want the user's", got, first.DefaultRubricID())
	}
	for i := 0; i < 2; i++ {
		next := Load(Sources{})
		if got := next.ClaudePath(); got != "" {
			t.Errorf("Load %d without layers: ClaudePath = %q, from an earlier Load", i, got)
		}
		if got := next.DefaultRubricID(); got == "mine" {
			t.Errorf("Load %d without layers: DefaultRubricID = %q, from an earlier Load", i, got)
		}
	}
}
