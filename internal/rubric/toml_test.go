package rubric

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTOMLHappyPath(t *testing.T) {
	path := write(t, "tribunal.toml", `
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
	path := write(t, "tribunal.toml", "[[rubrics]]\nid = \"e\"\njudge_types = []\ncriteria = []\n")
	r, _ := LoadSet(LoadOptions{UserTOML: path}).Lookup("e")
	if string(r.Raw) != `{"id":"e","criteria":[],"judge_types":[]}` {
		t.Errorf("Raw = %s", r.Raw)
	}
	if string(r.JudgeTypes) != "[]" {
		t.Errorf("JudgeTypes = %q, want an explicit empty list", r.JudgeTypes)
	}
}

// TestTOMLRejected covers the strict decoding: the whole file is ignored,
// with one warning naming the file and the offending key or position, and
// the rubrics already loaded are untouched.
func TestTOMLRejected(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string
	}{
		{"unknown key", "[[rubrics]]\nid = \"x\"\n[[rubrics.criteria]]\nname = \"a\"\nweight = 1.0\nmin_pass = 0.5\ncolour = \"red\"\n",
			`unknown key "rubrics.criteria.colour"`},
		{"unknown top-level key", "threshold = 0.5\n[[rubrics]]\nid = \"x\"\n", `unknown key "threshold"`},
		{"unknown table names only its top", "[[rubrics]]\nid = \"x\"\n[rubrics.extra]\nq = 1\n", `unknown key "rubrics.extra"; file ignored`},
		{"wrong-case key", "[[rubrics]]\nID = \"x\"\n", `unknown key "rubrics.ID" (keys are case-sensitive: write "rubrics.id")`},
		{"wrong-case table names only its top", "[[Rubrics]]\nID = \"x\"\n", `unknown key "Rubrics" (keys are case-sensitive: write "rubrics"); file ignored`},
		{"wrong-case inline key", "rubrics = [{id = \"other\"}, {id = \"x\", criteria = [{name = \"a\", Weight = 1.0, min_pass = 0.5}]}]\n",
			`unknown key "rubrics.criteria.Weight"`},
		{"quoted dotted key", "[[rubrics]]\nid = \"x\"\n\"criteria.name\" = \"a\"\n", `unknown key "rubrics.\"criteria.name\""`},
		{"syntax error", "[[rubrics]]\nid = tru\n", "toml syntax error at line 2, column 6"},
		{"duplicate key", "[[rubrics]]\nid = \"a\"\nid = \"b\"\n", "toml syntax error at line 3"},
		{"max_iterations float", "[[rubrics]]\nid = \"x\"\nmax_iterations = 2.5\n", `last key "rubrics.max_iterations"`},
		{"max_iterations string", "[[rubrics]]\nid = \"x\"\nmax_iterations = \"3\"\n", `last key "rubrics.max_iterations"`},
		{"score_threshold string", "[[rubrics]]\nid = \"x\"\nscore_threshold = \"0.8\"\n", `last key "rubrics.score_threshold"`},
		{"judge_types mixed", "[[rubrics]]\nid = \"x\"\njudge_types = [\"standard\", 1]\n", "rubrics.judge_types"},
		{"rubrics not an array", "rubrics = 5\n", `last key "rubrics"`},
		{"nan weight", "[[rubrics]]\nid = \"x\"\n[[rubrics.criteria]]\nname = \"a\"\nweight = nan\nmin_pass = 0.5\n",
			"rubrics[0].criteria[0].weight: NaN is not a valid number"},
		{"inf threshold", "[[rubrics]]\nid = \"x\"\nscore_threshold = inf\n", "rubrics[0].score_threshold: +Inf is not a valid number"},
		{"nested too deeply", "[[rubrics]]\nid = \"x\"\njudge_types = " + strings.Repeat("[", 500000) + "\n",
			"nesting too deep: more than 1000 levels at line 3, column 1015"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := tt.content
			if !strings.HasPrefix(content, "rubrics =") {
				// A valid rubric in the same file must be dropped too; an
				// inline "rubrics =" cannot be followed by [[rubrics]].
				content += "\n[[rubrics]]\nid = \"other\"\n"
			}
			path := write(t, "tribunal.toml", content)
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

func TestTOMLUnknownKeysAllNamed(t *testing.T) {
	_, err := parseTOML([]byte("a = 1\n[[rubrics]]\nid = \"x\"\nb = 2\n"), "f", func(string) {})
	if err == nil || err.Error() != `unknown key "a", unknown key "rubrics.b"` {
		t.Errorf("err = %v", err)
	}
}

func TestTOMLEntryWithoutID(t *testing.T) {
	path := write(t, "tribunal.toml", "[[rubrics]]\nscore_threshold = 0.5\n[[rubrics]]\nid = \"\"\n[[rubrics]]\nid = \"kept\"\n")
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
	s := LoadSet(LoadOptions{UserTOML: write(t, "tribunal.toml", "# nothing yet\n"), Warn: w.add})
	if len(s.IDs()) != 0 || len(w) != 0 {
		t.Errorf("IDs %v, warnings %q", s.IDs(), w)
	}
}
