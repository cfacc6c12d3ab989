package rubric

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestValidateDirectives is check 11 of spec §2.7: directives, when given,
// are at most MaxDirectives distinct lines of plain text of at most
// MaxDirectiveLen characters each.
func TestValidateDirectives(t *testing.T) {
	long := strings.Repeat("é", MaxDirectiveLen) // 300 characters, 600 bytes
	eleven := `["a","b","c","d","e","f","g","h","i","j","k"]`
	tests := []struct {
		name, directives, want string
	}{
		{"absent", ``, ""},
		{"null", `,"directives":null`, ""},
		{"empty list", `,"directives":[]`, ""},
		{"two", `,"directives":["Treat a data race as a blocker.","Ignore formatting."]`, ""},
		{"300 characters, counted as characters", `,"directives":["` + long + `"]`, ""},
		{"ten", `,"directives":["a","b","c","d","e","f","g","h","i","j"]`, ""},
		{"a string", `,"directives":"be strict"`, `rubric r: directives must be an array of strings, got "be strict"`},
		{"an object", `,"directives":{"a":1}`, `rubric r: directives must be an array of strings, got {"a":1}`},
		{"eleven", `,"directives":` + eleven, "rubric r: directives has 11 entries; at most 10"},
		{"a number entry", `,"directives":["ok",3]`, "rubric r: directives[1] must be a string, got 3"},
		{"an empty entry", `,"directives":["  "]`, "rubric r: directives[0] is empty"},
		{"301 characters", `,"directives":["` + long + `x"]`, "rubric r: directives[0] is 301 characters; at most 300"},
		{"a newline", `,"directives":["one\ntwo"]`, `rubric r: directives[0] must be one line of plain text (it holds '\n')`},
		{"an escape", `,"directives":["\u001b[2J"]`, `rubric r: directives[0] must be one line of plain text (it holds '\x1b')`},
		{"a bidi control", `,"directives":["a\u202eb"]`, `rubric r: directives[0] must be one line of plain text (it holds '\u202e')`},
		{"a repeat", `,"directives":["x","y","x"]`, "rubric r: directives[2] repeats an earlier directive"},
		{"wrong case is an unknown key", `,"Directives":["x"]`, `rubric r: unknown key "Directives" (keys are case-sensitive: write "directives")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(json.RawMessage(`{"id":"r",` + one + tt.directives + `}`))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := Validate(&r); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDirectivesAreParsedAndCloned(t *testing.T) {
	r, err := Parse(json.RawMessage(`{"id":"r",` + one + `,"directives":["a","b"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Directives, []string{"a", "b"}) {
		t.Fatalf("directives %q", r.Directives)
	}
	c := r.clone()
	c.Directives[0] = "changed"
	if r.Directives[0] != "a" {
		t.Fatal("a clone shares its directives with the original")
	}
}

// TestDirectivesInTOML: a TOML rubric's directives are an array of
// strings, read exactly as the JSON ones.
func TestDirectivesInTOML(t *testing.T) {
	path := testkit.TempFile(t, "tribunal.toml", `
[[rubrics]]
id = "docs"
directives = ["Treat a broken link as a blocker.", "Ignore tone."]

[[rubrics.criteria]]
name = "accuracy"
weight = 1
min_pass = 0.7
`)
	var w warnings
	s := LoadSet(LoadOptions{Builtins: json.RawMessage(builtins), UserTOML: path, Warn: w.add})
	r, ok := s.Lookup("docs")
	if len(w) != 0 || !ok {
		t.Fatalf("warnings %q, found %v", w, ok)
	}
	if err := Validate(r); err != nil || !slices.Equal(r.Directives, []string{"Treat a broken link as a blocker.", "Ignore tone."}) {
		t.Fatalf("err %v, directives %q", err, r.Directives)
	}
}
