package rubric

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// withEvaluators is a valid rubric carrying the given evaluators array.
func withEvaluators(evaluators string) string {
	return `{"id":"r",` + one + `,"evaluators":` + evaluators + `}`
}

func TestEvaluatorValidation(t *testing.T) {
	tests := []struct {
		name, evaluators, want string // want "" means valid
	}{
		{"regex", `[{"name":"no-todo","kind":"regex","must_not_match":"TODO","paths":"**/*.go","severity":"minor","required":false}]`, ""},
		{"actor output", `[{"name":"done","kind":"regex","must_match":"(?i)done","in":"actor_output"}]`, ""},
		{"schema inline", `[{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema":{"type":"object"}}]`, ""},
		{"schema file", `[{"name":"cfg","kind":"json_schema","paths":"*.json","schema_file":"schemas/cfg.json"}]`, ""},
		{"file equals", `[{"name":"v","kind":"file_equals","file":"VERSION","expected":""}]`, ""},
		{"not an array", `{"name":"x"}`, `rubric r: evaluators must be an array of objects, got {"name":"x"}`},
		{"not an object", `[3]`, "rubric r: evaluators[0]: must be an object"},
		{"no name", `[{"kind":"regex","must_match":"x"}]`, "rubric r: evaluators[0]: name must be 1 to 64 letters"},
		{"bad name", `[{"name":"no todo","kind":"regex","must_match":"x"}]`, `rubric r: evaluators[0] (no todo): name must be`},
		{"unknown kind", `[{"name":"x","kind":"regexp","must_match":"x"}]`, `rubric r: evaluators[0] (x): unknown kind "regexp" (must be one of regex, json_schema, file_equals)`},
		{"missing kind", `[{"name":"x"}]`, `rubric r: evaluators[0] (x): unknown kind null`},
		{"invalid regex", `[{"name":"x","kind":"regex","must_not_match":"(unclosed"}]`, "rubric r: evaluators[0] (x): must_not_match: invalid regular expression: error parsing regexp: missing closing )"},
		{"both patterns", `[{"name":"x","kind":"regex","must_match":"a","must_not_match":"b"}]`, "needs exactly one of must_match and must_not_match"},
		{"no pattern", `[{"name":"x","kind":"regex"}]`, "needs exactly one of must_match and must_not_match"},
		{"empty pattern", `[{"name":"x","kind":"regex","must_match":""}]`, `must_match must be a non-empty string, got ""`},
		{"bad in", `[{"name":"x","kind":"regex","must_match":"a","in":"diff"}]`, `in must be "added_lines" or "actor_output", got "diff"`},
		{"paths with actor output", `[{"name":"x","kind":"regex","must_match":"a","in":"actor_output","paths":"*.go"}]`, "paths selects changed files"},
		{"bad glob", `[{"name":"x","kind":"regex","must_match":"a","paths":"[a-"}]`, `paths: glob "[a-": segment "[a-": syntax error in pattern`},
		{"unknown key", `[{"name":"x","kind":"regex","must_match":"a","file":"f"}]`, `unknown key "file" (a regex evaluator has name, kind, severity, required, must_match, must_not_match, in, paths)`},
		{"bad severity", `[{"name":"x","kind":"regex","must_match":"a","severity":"warning"}]`, `severity must be one of info, low, minor, moderate, major, critical, blocker, got "warning"`},
		{"bad required", `[{"name":"x","kind":"regex","must_match":"a","required":"yes"}]`, `required must be true or false, got "yes"`},
		{"duplicate name", `[{"name":"x","kind":"regex","must_match":"a"},{"name":"x","kind":"regex","must_match":"b"}]`, "evaluators[1] (x): the name is used twice"},
		{"schema without paths", `[{"name":"s","kind":"json_schema","schema":{}}]`, "needs paths"},
		{"schema and file", `[{"name":"s","kind":"json_schema","paths":"*","schema":{},"schema_file":"a"}]`, "exactly one of schema and schema_file"},
		{"schema not object", `[{"name":"s","kind":"json_schema","paths":"*","schema":true}]`, "schema must be an object, got true"},
		{"schema file escapes", `[{"name":"s","kind":"json_schema","paths":"*","schema_file":"../x.json"}]`, `schema_file "../x.json": must stay inside the worktree`},
		{"absolute file", `[{"name":"f","kind":"file_equals","file":"/etc/hostname","expected":""}]`, `file "/etc/hostname": must be a relative path`},
		{"no expected", `[{"name":"f","kind":"file_equals","file":"VERSION"}]`, "expected must be a string, got null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(json.RawMessage(withEvaluators(tc.evaluators)))
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(&r)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestEvaluatorDefaults(t *testing.T) {
	r, err := Parse(json.RawMessage(withEvaluators(`[{"name":"x","kind":"regex","must_not_match":"TODO"}]`)))
	if err != nil {
		t.Fatal(err)
	}
	es, err := r.Evaluators()
	if err != nil || len(es) != 1 {
		t.Fatalf("Evaluators = %v, %v", es, err)
	}
	e := es[0]
	if e.Severity != severity.Major || !e.Required || e.In != InAddedLines || e.MustMatch || !e.Paths.Match("any/where.txt") {
		t.Errorf("defaults: %+v", e)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"*.go", "main.go", true},
		{"*.go", "a/b/main.go", true},
		{"*.go", "main.js", false},
		{"src/*.go", "src/main.go", true},
		{"src/*.go", "src/a/main.go", false},
		{"src/**/*.go", "src/main.go", true},
		{"src/**/*.go", "src/a/b/main.go", true},
		{"src/**/*.go", "lib/main.go", false},
		{"**/test/*", "a/test/x", true},
		{"**", "anything/at/all", true},
		{"/VERSION", "VERSION", true},
		{"config/[ab].json", "config/a.json", true},
		{"config/[ab].json", "config/c.json", false},
	}
	for _, tc := range tests {
		g, err := ParseGlob(tc.pattern)
		if err != nil {
			t.Fatalf("ParseGlob(%q): %v", tc.pattern, err)
		}
		if got := g.Match(tc.path); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"a//b", "[", "src/[z-a"} {
		if _, err := ParseGlob(bad); err == nil {
			t.Errorf("ParseGlob(%q) accepted", bad)
		}
	}
}

func TestTOMLEvaluators(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", `
[[rubrics]]
id = "checked"

[[rubrics.criteria]]
name = "all"
weight = 1
min_pass = 0.5

[[rubrics.evaluators]]
name = "no-todo"
kind = "regex"
must_not_match = "TODO"
severity = "minor"

[[rubrics.evaluators]]
name = "cfg"
kind = "json_schema"
paths = "config/*.json"
schema = { type = "object", required = ["name"] }
`)
	var w warnings
	s := LoadSet(LoadOptions{UserTOML: path, Warn: w.add})
	if len(w) != 0 {
		t.Fatalf("warnings: %q", w)
	}
	r, _ := s.Lookup("checked")
	es, err := r.Evaluators()
	if err != nil || len(es) != 2 {
		t.Fatalf("Evaluators = %+v, %v", es, err)
	}
	if es[0].Severity != severity.Minor || es[1].Kind != KindJSONSchema || string(es[1].Schema) != `{"required":["name"],"type":"object"}` {
		t.Errorf("TOML evaluators: %+v", es)
	}
}
