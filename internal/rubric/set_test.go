package rubric

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

const builtins = `[` + defaultRubric + `,{"id":"strict","criteria":[{"name":"all","weight":1,"min_pass":0.9}],"gate_policy":"strict"}]`

type warnings []string

func (w *warnings) add(s string) { *w = append(*w, s) }

// has reports whether one warning contains every fragment.
func (w warnings) has(fragments ...string) bool {
	return slices.ContainsFunc(w, func(s string) bool {
		for _, f := range fragments {
			if !strings.Contains(s, f) {
				return false
			}
		}
		return true
	})
}

func TestLoadSetBuiltins(t *testing.T) {
	var w warnings
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), Warn: w.add})
	if got := s.IDs(); !slices.Equal(got, []string{"default", "strict"}) {
		t.Fatalf("IDs = %v", got)
	}
	r, ok := s.Lookup("strict")
	if !ok || string(r.GatePolicy) != `"strict"` {
		t.Fatalf("Lookup(strict) = %+v, %v", r, ok)
	}
	if _, ok := s.Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
	if len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
}

func TestLoadSetNoSources(t *testing.T) {
	for _, b := range []string{"", "null", " null "} {
		var w warnings
		s := LoadSet(LoadOptions{Builtins: json.RawMessage(b), Warn: w.add})
		if len(s.IDs()) != 0 || len(w) != 0 {
			t.Errorf("builtins %q: IDs %v, warnings %q", b, s.IDs(), w)
		}
	}
	var zero Set
	if _, ok := zero.Lookup("default"); ok || zero.IDs() != nil {
		t.Error("the zero Set is not empty")
	}
}

// TestLoadSetOverlayOrder checks that each source wins over every earlier
// one: built-ins, user JSON, user TOML, repo JSON, repo TOML.
func TestLoadSetOverlayOrder(t *testing.T) {
	jsonFile := func(tag string) string {
		return testkit.TempFile(t, "tribunal.json", `{"rubrics":[{"id":"default","criteria":[{"name":"`+tag+`","weight":1,"min_pass":0.5}]}]}`)
	}
	tomlFile := func(tag string) string {
		return testkit.TempFile(t, "tribunal.toml", "[[rubrics]]\nid = \"default\"\n[[rubrics.criteria]]\nname = \""+tag+"\"\nweight = 1.0\nmin_pass = 0.5\n")
	}
	all := LoadOptions{
		Builtins: json.RawMessage(builtins),
		UserJSON: jsonFile("user-json"),
		UserTOML: tomlFile("user-toml"),
		RepoJSON: jsonFile("repo-json"),
		RepoTOML: tomlFile("repo-toml"),
	}
	tests := []struct {
		name string
		drop func(*LoadOptions)
		want string
	}{
		{"repo TOML wins over all", func(*LoadOptions) {}, "repo-toml"},
		{"repo JSON wins over user TOML", func(o *LoadOptions) { o.RepoTOML = "" }, "repo-json"},
		{"user TOML wins over user JSON", func(o *LoadOptions) { o.RepoTOML, o.RepoJSON = "", "" }, "user-toml"},
		{"user JSON wins over built-ins", func(o *LoadOptions) { o.RepoTOML, o.RepoJSON, o.UserTOML = "", "", "" }, "user-json"},
		{"built-ins alone", func(o *LoadOptions) { o.RepoTOML, o.RepoJSON, o.UserTOML, o.UserJSON = "", "", "", "" }, "correctness"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := all
			tt.drop(&o)
			var w warnings
			o.Warn = w.add
			r, ok := LoadSet(o).Lookup("default")
			if !ok {
				t.Fatal("default missing")
			}
			if r.Criteria[0].Name != tt.want {
				t.Errorf("winner criterion = %q, want %q", r.Criteria[0].Name, tt.want)
			}
			if len(w) != 0 {
				t.Errorf("warnings: %q", w)
			}
		})
	}
}

// TestLoadSetReplacesWhole checks that an overlay replaces a rubric as a
// whole: fields the overlay leaves out do not survive from the built-in.
func TestLoadSetReplacesWhole(t *testing.T) {
	user := testkit.TempFile(t, "tribunal.json", `{"rubrics":[
		{"id":"strict","criteria":[{"name":"x","weight":1,"min_pass":0.1}]},
		{"id":"extra","criteria":[{"name":"y","weight":1,"min_pass":0.1}]}]}`)
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), UserJSON: user})
	r, _ := s.Lookup("strict")
	if r.GatePolicy != nil {
		t.Errorf("gate_policy survived the replacement: %s", r.GatePolicy)
	}
	if !strings.Contains(string(r.Raw), `"x"`) {
		t.Errorf("Raw = %s, want the overlay's object", r.Raw)
	}
	if got := s.IDs(); !slices.Equal(got, []string{"default", "strict", "extra"}) {
		t.Errorf("IDs = %v", got)
	}
}

func TestLoadSetSameIDTwiceInOneFile(t *testing.T) {
	user := testkit.TempFile(t, "tribunal.json", `{"rubrics":[
		{"id":"a","criteria":[{"name":"first","weight":1,"min_pass":0.1}]},
		{"id":"a","criteria":[{"name":"second","weight":1,"min_pass":0.1}]}]}`)
	r, _ := LoadSet(LoadOptions{UserJSON: user}).Lookup("a")
	if r.Criteria[0].Name != "second" {
		t.Errorf("got %q, want the later entry", r.Criteria[0].Name)
	}
}

// TestLoadSetBadEntries covers spec §A.22: a bad entry is skipped alone, with
// a warning naming the file, and neither the built-ins nor the file's good
// entries are lost.
func TestLoadSetBadEntries(t *testing.T) {
	user := testkit.TempFile(t, "tribunal.json", `{"rubrics":[
		{"criteria":[]},
		{"id":"","criteria":[]},
		{"id":5},
		{"id":null},
		"default",
		null,
		{"id":"good","criteria":[{"name":"g","weight":1,"min_pass":0.1}]}]}`)
	var w warnings
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), UserJSON: user, Warn: w.add})
	if got := s.IDs(); !slices.Equal(got, []string{"default", "strict", "good"}) {
		t.Errorf("IDs = %v", got)
	}
	for i := range 4 {
		if !w.has(user, "rubrics["+string(rune('0'+i))+`] has no non-empty string "id"; skipped`) {
			t.Errorf("no warning for entry %d: %q", i, w)
		}
	}
	for _, i := range []string{"4", "5"} {
		if !w.has(user, "rubrics["+i+"] is not an object; skipped") {
			t.Errorf("no warning for entry %s: %q", i, w)
		}
	}
	if len(w) != 6 {
		t.Errorf("got %d warnings, want 6: %q", len(w), w)
	}
}

func TestLoadSetBadFiles(t *testing.T) {
	big := `{"rubrics":[],"pad":"` + strings.Repeat("x", maxFileSize) + `"}`
	tests := []struct {
		name    string
		content string
		warn    string // "" means silent
	}{
		{"rubrics is an object", `{"rubrics":{"id":"x"}}`, `"rubrics" is not an array; file ignored`},
		{"rubrics is a string", `{"rubrics":"x"}`, `"rubrics" is not an array; file ignored`},
		{"syntax error", "{\n  \"rubrics\": [,]\n}", "invalid JSON at line 2, column 15"},
		{"empty file", "", "invalid JSON"},
		{"top-level array", `[{"id":"x"}]`, "top level is a JSON array, not an object"},
		{"oversized", big, "larger than 1048576 bytes; file ignored"},
		{"nested too deeply", `{"rubrics":[],"x":` + strings.Repeat("[", 500000), "nesting too deep: more than 1000 levels"},
		{"no rubrics key", `{}`, ""},
		{"unknown top-level key", `{"rubric":[{"id":"x"}]}`, `unknown key "rubric" ignored`},
		{"null rubrics", `{"rubrics":null}`, ""},
		{"empty rubrics", `{"rubrics":[]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := testkit.TempFile(t, "tribunal.json", tt.content)
			var w warnings
			s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), RepoJSON: path, Warn: w.add})
			if got := s.IDs(); !slices.Equal(got, []string{"default", "strict"}) {
				t.Errorf("IDs = %v, want the built-ins untouched", got)
			}
			switch {
			case tt.warn == "" && len(w) != 0:
				t.Errorf("unexpected warnings: %q", w)
			case tt.warn != "" && (len(w) != 1 || !w.has(path, tt.warn)):
				t.Errorf("warnings = %q, want one naming %s and saying %q", w, path, tt.warn)
			}
		})
	}
}

func TestLoadSetMissingAndUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	LoadSet(LoadOptions{UserJSON: filepath.Join(dir, "missing.json"), UserTOML: filepath.Join(dir, "missing.toml"), Warn: w.add})
	if len(w) != 0 {
		t.Errorf("a missing file warned: %q", w)
	}
	LoadSet(LoadOptions{RepoJSON: dir, Warn: w.add})
	if !w.has(dir, "file ignored") {
		t.Errorf("a directory in place of the file did not warn: %q", w)
	}
}

func TestLoadSetBuiltinsNotArray(t *testing.T) {
	var w warnings
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(`{"id":"default"}`), Warn: w.add})
	if len(s.IDs()) != 0 || !w.has("tribunal.rubric.builtins", "not an array") {
		t.Errorf("IDs %v, warnings %q", s.IDs(), w)
	}
}

func TestLookupReturnsACopy(t *testing.T) {
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins)})
	r, _ := s.Lookup("default")
	r.Criteria[0].Name = "changed"
	r.Raw[0] = 'X'
	again, _ := s.Lookup("default")
	if again.Criteria[0].Name != "correctness" || again.Raw[0] != '{' {
		t.Error("mutating a looked-up rubric changed the set")
	}
	ids := s.IDs()
	ids[0] = "changed"
	if s.IDs()[0] != "default" {
		t.Error("mutating IDs() changed the set")
	}
}

// TestJSONRubricProblems: a JSON rubric is held to the same keys as a TOML
// one, and one bad rubric leaves the file's others usable.
func TestJSONRubricProblems(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.json", `{"rubrics":[
		{"id":"typo","score_treshold":0.9,"criteria":[{"name":"a","weight":1,"min_pass":0.5}]},
		{"id":"case","criteria":[{"Name":"a","weight":1,"min_pass":0.5}]},
		{"id":"strthreshold","score_threshold":"0.9","criteria":[{"name":"a","weight":1,"min_pass":0.5}]},
		{"id":"good","criteria":[{"name":"a","weight":1,"min_pass":0.5}]}]}`)
	var w warnings
	s := LoadSet(LoadOptions{UserJSON: path, Warn: w.add})
	if !slices.Equal(s.IDs(), []string{"typo", "case", "strthreshold", "good"}) {
		t.Fatalf("IDs = %v", s.IDs())
	}
	if len(w) != 2 || !w.has(path, `rubric typo: unknown key "score_treshold"`) ||
		!w.has(path, `rubric case: unknown key "criteria[0].Name" (keys are case-sensitive: write "criteria[0].name")`) {
		t.Errorf("warnings = %q", w)
	}
	for id, want := range map[string]string{
		"typo":         path + `: rubric typo: unknown key "score_treshold" (did you mean "score_threshold"?)`,
		"case":         path + `: rubric case: unknown key "criteria[0].Name" (keys are case-sensitive: write "criteria[0].name")`,
		"strthreshold": path + `: rubric strthreshold: score_threshold must be a number, got "0.9"`,
		"good":         "",
	} {
		r, _ := s.Lookup(id)
		err := Validate(r)
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("Validate(%s) = %v, want %q", id, err, want)
		}
	}
}
