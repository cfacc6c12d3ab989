package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProfileLayering (spec §2.12): a profile is a layer between the
// defaults (and the plugin's file) and the settings files. It sets its
// keys, named "profile NAME" in config; a key a file sets wins over it;
// the flag wins over tribunal.profile; a bad name in a file warns and
// leaves the defaults.
func TestProfileLayering(t *testing.T) {
	type want struct{ value, source string }
	const key = "tribunal."
	for _, tc := range []struct {
		name   string
		plugin string // layer 1's tribunal object, "" for none
		user   string // layer 2
		repo   string // layer 4
		flag   string
		want   map[string]want
		warn   string
	}{
		{name: "none is standard", want: map[string]want{
			"session.max_iterations": {`3`, builtinSource},
			"judges.model":           {`"claude-opus-4-7"`, builtinSource},
			"profile":                {`"standard"`, builtinSource},
		}},
		{name: "light from the user's file", user: `{"profile":"light"}`, want: map[string]want{
			"session.max_iterations":         {`2`, "profile light"},
			"judges.model":                   {`"claude-sonnet-4-6"`, "profile light"},
			"meta_judge.skip_when_unanimous": {`true`, "profile light"},
			"meta_judge.model":               {`"claude-opus-4-7"`, builtinSource},
			"session.judge_types":            {`["standard","adversarial"]`, builtinSource},
			"meta_judge.skip_min_confidence": {`0.8`, "profile light"},
			"profile":                        {`"light"`, "user"},
			"session.score_threshold":        {`0.75`, builtinSource},
			"session.gate_policy":            {`"majority"`, builtinSource},
			"session.dissent_threshold":      {`0.25`, builtinSource},
			"rubric.default_id":              {`"default"`, builtinSource},
			"actor.model":                    {`"claude-sonnet-4-6"`, builtinSource},
			"stop_hook.enabled":              {`false`, builtinSource},
			"session.aggregation_method":     {`"weighted_mean"`, builtinSource},
			"session.budget_usd":             {`5`, builtinSource},
			"meta_judge.max_output_tokens":   {`1024`, builtinSource},
			"session.judge_timeout_seconds":  {`600`, builtinSource},
			"rubric.min_criterion_coverage":  {`0.6`, builtinSource},
			"actor.max_output_tokens":        {`4096`, builtinSource},
			"judges.max_output_tokens":       {`2048`, builtinSource},
		}},
		{name: "an explicit key wins over the profile", user: `{"profile":"light","session":{"max_iterations":4}}`,
			want: map[string]want{
				"session.max_iterations": {`4`, "user"},
				"judges.model":           {`"claude-sonnet-4-6"`, "profile light"},
			}},
		{name: "the profile wins over the plugin's file", plugin: `{"judges":{"model":"plugin-model"}}`, user: `{"profile":"light"}`,
			want: map[string]want{"judges.model": {`"claude-sonnet-4-6"`, "profile light"}}},
		{name: "the repository picks the profile", user: `{"profile":"light"}`, repo: `{"profile":"thorough"}`,
			want: map[string]want{
				"session.max_iterations": {`3`, builtinSource},
				"session.judge_types":    {`["standard","adversarial","security"]`, "profile thorough"},
				"judges.reps":            {`2`, "profile thorough"},
				"profile":                {`"thorough"`, "repo"},
			}},
		{name: "the flag wins over the files", user: `{"profile":"thorough","judges":{"reps":3}}`, flag: "light",
			want: map[string]want{
				"session.max_iterations": {`2`, "profile light"},
				"judges.reps":            {`3`, "user"},
				"session.judge_types":    {`["standard","adversarial"]`, builtinSource},
				"profile":                {`"light"`, "--profile"},
			}},
		{name: "standard sets nothing", user: `{"profile":"standard"}`,
			want: map[string]want{"session.max_iterations": {`3`, builtinSource}, "judges.model": {`"claude-opus-4-7"`, builtinSource}}},
		{name: "an unknown name warns", user: `{"profile":"ligth"}`, warn: `tribunal.profile: unknown profile "ligth" (known: light, standard, thorough) (did you mean "light"?); using "standard"`,
			want: map[string]want{"session.max_iterations": {`3`, builtinSource}, "profile": {`"standard"`, builtinSource}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			files := map[string]string{}
			if tc.plugin != "" {
				e.write(1, `{"tribunal":`+tc.plugin+`}`)
			}
			if tc.user != "" {
				files["user"] = e.tribunal(2, tc.user)
			}
			if tc.repo != "" {
				files["repo"] = e.tribunal(4, tc.repo)
			}
			e.src.Profile = tc.flag
			cfg := Load(e.src)
			got := map[string]Setting{}
			for _, s := range cfg.Settings() {
				got[strings.TrimPrefix(s.Key, key)] = s
			}
			for k, w := range tc.want {
				src := w.source
				if f, ok := files[src]; ok {
					src = f
				}
				s := got[k]
				var v any
				if json.Unmarshal(s.Value, &v) != nil || compact(s.Value) != compact(json.RawMessage(w.value)) || s.Source != src {
					t.Errorf("%s = %s from %q, want %s from %q", k, s.Value, s.Source, w.value, src)
				}
			}
			if tc.warn == "" && len(e.warnings) > 0 {
				t.Errorf("warnings: %q", e.warnings)
			}
			if tc.warn != "" && !strings.Contains(strings.Join(e.warnings, "\n"), tc.warn) {
				t.Errorf("warnings %q, want one containing %q", e.warnings, tc.warn)
			}
		})
	}
}

func compact(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestProfileBodiesParse: every profile's keys are in the schema, so none
// is dropped as unknown when its layer is merged.
func TestProfileBodiesParse(t *testing.T) {
	for _, name := range ProfileNames() {
		var warns []string
		n, err := parseNode([]byte(profileBodies[name]), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		prune(n, tribunalSpec(), "tribunal", func(s string) { warns = append(warns, s) })
		if len(warns) > 0 {
			t.Errorf("%s: %q", name, warns)
		}
	}
	if ProfileError("light") != nil || ProfileError("heavy") == nil {
		t.Error("ProfileError accepts the wrong names")
	}
}

// TestMetaSkip: light turns the skip on; the defaults leave it off.
func TestMetaSkip(t *testing.T) {
	e := newEnv(t)
	if s := e.load().MetaSkip(); s.Enabled {
		t.Errorf("standard skips the meta-judge: %+v", s)
	}
	e.src.Profile = ProfileLight
	if s := e.load().MetaSkip(); !s.Enabled || s.MinConfidence != 0.8 {
		t.Errorf("light: %+v", s)
	}
}
