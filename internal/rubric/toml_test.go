package rubric

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestTOMLHappyPath(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", `
[[rubrics]]
id = "docs"
score_threshold = 0.8
max_iterations = 2
judge_types = ["standard", "security"]
gate_policy = "unanimous"
aggregation_method = "min"

[[rubrics.criteria]]
name = "accuracy"
weight = 0.75
min_pass = 0.7

[[rubrics.criteria]]
name = "tone"
weight = 0.25
min_pass = 1

[[rubrics]]
id = "bare"
`)
	var w warnings
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), UserTOML: path, Warn: w.add})
	if len(w) != 0 {
		t.Fatalf("warnings: %q", w)
	}
	if got := s.IDs(); !slices.Equal(got, []string{"default", "strict", "docs", "bare"}) {
		t.Fatalf("IDs = %v", got)
	}
	got, _ := s.Lookup("docs")
	want, err := Parse(json.RawMessage(`{"id":"docs","criteria":[{"name":"accuracy","weight":0.75,"min_pass":0.7},{"name":"tone","weight":0.25,"min_pass":1}],"score_threshold":0.8,"max_iterations":2,"judge_types":["standard","security"],"gate_policy":"unanimous","aggregation_method":"min"}`))
	if err != nil {
		t.Fatal(err)
	}
	want.Raw, want.Origin = got.Raw, path // Raw has encoding/json key order; every parsed field is compared
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("TOML rubric\n got %+v\nwant %+v", *got, want)
	}
	if err := Validate(got); err != nil {
		t.Errorf("Validate: %v", err)
	}
	bare, _ := s.Lookup("bare")
	if string(bare.Raw) != `{"id":"bare"}` || bare.ScoreThreshold != nil || bare.Criteria != nil {
		t.Errorf("absent TOML fields must stay absent: %+v", bare)
	}
}

func TestTOMLEmptyListsStayPresent(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", "[[rubrics]]\nid = \"e\"\njudge_types = []\ncriteria = []\n")
	r, _ := LoadSet(LoadOptions{UserTOML: path}).Lookup("e")
	if string(r.Raw) != `{"criteria":[],"id":"e","judge_types":[]}` {
		t.Errorf("Raw = %s", r.Raw)
	}
	if string(r.JudgeTypes) != "[]" {
		t.Errorf("JudgeTypes = %q, want an explicit empty list", r.JudgeTypes)
	}
}

// TestTOMLFileRejected covers what no rubric of the file can survive: a
// syntax error, or a "rubrics" that is not a list of tables. The whole file
// is ignored with one warning naming it, and the rubrics already loaded are
// untouched.
func TestTOMLFileRejected(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string
	}{
		{"syntax error", "[[rubrics]]\nid = tru\n[[rubrics]]\nid = \"other\"\n", "toml syntax error at line 2, column 6"},
		{"duplicate key", "[[rubrics]]\nid = \"a\"\nid = \"b\"\n[[rubrics]]\nid = \"other\"\n", "toml syntax error at line 3"},
		{"rubrics not an array", "rubrics = 5\n", `"rubrics" is not an array of tables`},
		{"rubrics a list of strings", "rubrics = [\"a\"]\n", `"rubrics" is not an array of tables`},
		{"nested too deeply", "[[rubrics]]\nid = \"x\"\njudge_types = " + strings.Repeat("[", 500000) + "\n",
			"nesting too deep: more than 1000 levels at line 3, column 1015"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := testkit.TempFile(t, "tribunal.toml", tt.content)
			var w warnings
			s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), RepoTOML: path, Warn: w.add})
			if got := s.IDs(); !slices.Equal(got, []string{"default", "strict"}) {
				t.Errorf("IDs = %v, want the built-ins only (file ignored whole)", got)
			}
			if len(w) != 1 || !w.has(path, tt.want, "file ignored") {
				t.Errorf("warnings = %q, want one naming %s and %q", w, path, tt.want)
			}
		})
	}
}

// TestTOMLRubricRejected covers a bad rubric: it is loaded but unusable,
// selecting it fails with the file, the rubric and the reason, and the
// file's other rubric is unaffected.
func TestTOMLRubricRejected(t *testing.T) {
	tests := []struct {
		name    string
		content string
		warn    string // "" when loading does not warn (the value is only wrong once selected)
		want    string
	}{
		{"unknown criterion key", "[[rubrics]]\nid = \"x\"\n[[rubrics.criteria]]\nname = \"a\"\nweight = 1.0\nmin_pass = 0.5\ncolour = \"red\"\n",
			`unknown key "criteria[0].colour"`, `rubric x: unknown key "criteria[0].colour"`},
		{"unknown table", "[[rubrics]]\nid = \"x\"\n[rubrics.extra]\nq = 1\n", `unknown key "extra"`, `rubric x: unknown key "extra"`},
		{"wrong-case key", "[[rubrics]]\nid = \"x\"\nScore_Threshold = 0.5\n",
			`(keys are case-sensitive: write "score_threshold")`, `rubric x: unknown key "Score_Threshold" (keys are case-sensitive: write "score_threshold")`},
		{"wrong-case inline key", "rubrics = [{id = \"other\"}, {id = \"x\", criteria = [{name = \"a\", Weight = 1.0, min_pass = 0.5}]}]\n",
			`unknown key "criteria[0].Weight"`, `unknown key "criteria[0].Weight" (keys are case-sensitive: write "criteria[0].weight")`},
		{"quoted dotted key", "[[rubrics]]\nid = \"x\"\n\"criteria.name\" = \"a\"\n", `unknown key "criteria.name"`, `unknown key "criteria.name"`},
		{"max_iterations float", "[[rubrics]]\nid = \"x\"\nmax_iterations = 2.5\n" + oneTOML, "", "rubric x: max_iterations must be integer >= 1 (got 2.5)"},
		{"max_iterations string", "[[rubrics]]\nid = \"x\"\nmax_iterations = \"3\"\n" + oneTOML, "", `rubric x: max_iterations must be a number, got "3"`},
		{"score_threshold string", "[[rubrics]]\nid = \"x\"\nscore_threshold = \"0.8\"\n" + oneTOML, "", `rubric x: score_threshold must be a number, got "0.8"`},
		{"score_threshold date", "[[rubrics]]\nid = \"x\"\nscore_threshold = 2024-01-02\n" + oneTOML, "", `rubric x: score_threshold must be a number, got "2024-01-02`},
		{"min_pass string", "[[rubrics]]\nid = \"x\"\n[[rubrics.criteria]]\nname = \"a\"\nweight = 1.0\nmin_pass = \"high\"\n", "",
			`rubric x: invalid criteria: a (min_pass must be a number, got "high")`},
		{"nan weight", "[[rubrics]]\nid = \"x\"\n[[rubrics.criteria]]\nname = \"a\"\nweight = nan\nmin_pass = 0.5\n",
			"rubrics[0].criteria[0].weight: NaN is not a valid number", "rubric x: rubrics[0].criteria[0].weight: NaN is not a valid number"},
		{"inf threshold", "[[rubrics]]\nid = \"x\"\nscore_threshold = inf\n", "rubrics[0].score_threshold: +Inf is not a valid number", "+Inf is not a valid number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := tt.content
			if !strings.HasPrefix(content, "rubrics =") {
				content += "\n[[rubrics]]\nid = \"other\"\n"
			}
			path := testkit.TempFile(t, "tribunal.toml", content)
			var w warnings
			s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), RepoTOML: path, Warn: w.add})
			if got := s.IDs(); !slices.Contains(got, "other") || !slices.Contains(got, "x") {
				t.Errorf("IDs = %v, want the file's other rubric kept and x listed", got)
			}
			switch {
			case tt.warn == "" && len(w) != 0:
				t.Errorf("warnings = %q, want none", w)
			case tt.warn != "" && (len(w) != 1 || !w.has(path, "rubric x", tt.warn)):
				t.Errorf("warnings = %q, want one naming %s, rubric x and %q", w, path, tt.warn)
			}
			x, _ := s.Lookup("x")
			err := Validate(x)
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want %s: …%s", err, path, tt.want)
			}
		})
	}
}

const oneTOML = "[[rubrics.criteria]]\nname = \"all\"\nweight = 1.0\nmin_pass = 0.5\n"

func TestTOMLUnknownTopLevelKeys(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", "a = 1\nRubrics = 2\n[[rubrics]]\nid = \"x\"\n")
	var w warnings
	s := LoadSet(LoadOptions{UserTOML: path, Warn: w.add})
	if !slices.Equal(s.IDs(), []string{"x"}) {
		t.Errorf("IDs = %v, want the rubric kept", s.IDs())
	}
	if len(w) != 2 || !w.has(path, `unknown key "a" ignored`) ||
		!w.has(path, `unknown key "Rubrics" ignored (keys are case-sensitive: write "rubrics")`) {
		t.Errorf("warnings = %q", w)
	}
}

func TestTOMLEntryWithoutID(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", "[[rubrics]]\nscore_threshold = 0.5\n[[rubrics]]\nid = \"\"\n[[rubrics]]\nid = \"kept\"\n")
	var w warnings
	s := LoadSet(LoadOptions{UserTOML: path, Warn: w.add})
	if got := s.IDs(); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("IDs = %v", got)
	}
	if len(w) != 2 || !w.has(path, `rubrics[0] has no non-empty string "id"`) || !w.has(path, `rubrics[1] has no non-empty string "id"`) {
		t.Errorf("warnings = %q", w)
	}
}

func TestTOMLEmptyFile(t *testing.T) {
	var w warnings
	s := LoadSet(LoadOptions{UserTOML: testkit.TempFile(t, "tribunal.toml", "# nothing yet\n"), Warn: w.add})
	if len(s.IDs()) != 0 || len(w) != 0 {
		t.Errorf("IDs %v, warnings %q", s.IDs(), w)
	}
}
