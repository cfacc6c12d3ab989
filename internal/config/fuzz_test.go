package config

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// FuzzLoadSettingsLayer feeds arbitrary bytes as a settings file and as a
// plugin config.json. Loading must not panic, every accessor must answer,
// Raw must stay a JSON object, the merged tree must hold only known,
// well-typed keys, and a repository layer must never set claude.path nor
// choose a provider, an endpoint, a key variable or a CLI path.
func FuzzLoadSettingsLayer(f *testing.F) {
	f.Add([]byte(`{"tribunal":{"session":{"judge_types":["security"]}}}`))
	f.Add([]byte(`{"tribunal":{"judges":{"x":{"provider":"openai","base_url":"http://e","api_key_env":"K","api_key":"s"}},"meta_judge":{"provider":"codex"},"stop_hook":{"provider":"gemini"},"codex":{"path":"/x"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(name string, tree *node) {
			c := &Config{tree: tree, warn: func(string) {}}
			raw := c.Raw()
			if !json.Valid(raw) || raw[0] != '{' {
				t.Fatalf("%s: Raw is not a JSON object: %s", name, raw)
			}
			var again []string
			prune(tree, tribunalSpec(), "tribunal", func(s string) { again = append(again, s) })
			if len(again) != 0 {
				t.Fatalf("%s: the merged tree kept bad keys: %q", name, again)
			}
			_ = c.StopHook()
			_ = c.SessionStart()
			_ = c.JudgeModel("standard")
			_ = c.ClaudePath()
			_ = c.JudgeProvider("security")
			_ = c.MetaProvider()
			_ = c.StopProvider()
			_ = c.DefaultRubricID()
			set := rubric.LoadSet(rubric.LoadOptions{Builtins: c.BuiltinRubrics()})
			for _, id := range set.IDs() {
				r, _ := set.Lookup(id)
				_, _ = c.Session(r)
			}
			_, _ = c.Session(nil)
		}

		base := func() *node { return pluginLayer(defaultsJSON, builtinSource, func(string) {}) }
		var warnings []string
		warn := func(s string) { warnings = append(warnings, s) }

		repo := merge(base(), settingsLayer(data, layer{path: "repo.json", repo: true}, warn))
		if p := repo.at("claude", "path"); !p.isNull() {
			t.Fatalf("a repository layer set claude.path: %s", p.raw)
		}
		rc := &Config{tree: repo, warn: func(string) {}}
		specs := []Provider{rc.MetaProvider(), rc.StopProvider()}
		if j := repo.get("judges"); j.isObject() {
			for _, k := range j.keys {
				specs = append(specs, rc.JudgeProvider(k))
			}
		}
		for _, s := range specs {
			if !isClaude(s) || s.BaseURL != "" || s.APIKeyEnv != "" {
				t.Fatalf("a repository layer chose a provider: %+v", s)
			}
		}
		if rc.CLIPath("codex") != "" || rc.CLIPath("gemini") != "" {
			t.Fatal("a repository layer chose a CLI path")
		}
		check("repo layer", repo)
		check("user layer", merge(base(), settingsLayer(data, layer{path: "user.json"}, warn)))
		check("plugin layer", merge(base(), pluginLayer(data, "config.json", warn)))
		for _, w := range warnings {
			if w == "" || strings.HasPrefix(w, "tribunal:") || strings.Contains(w, "\n") {
				t.Fatalf("malformed warning %q", w)
			}
		}
	})
}
