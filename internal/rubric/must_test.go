package rubric

import (
	"strings"
	"testing"
)

// TestMustPatterns is spec §2.6's must_include/must_avoid: how each form
// reads and matches, and every malformed form refused by Validate
// (check 4) rather than checking less than was written.
func TestMustPatterns(t *testing.T) {
	tests := []struct {
		name, pats, text string
		match            bool
		bad              string // a Validate error it must contain; "" valid
	}{
		{"literal hit", `["Paris"]`, "It is Paris.", true, ""},
		{"literal is case-sensitive", `["Paris"]`, "it is paris", false, ""},
		{"literal ignore_case", `[{"pattern":"PARIS","ignore_case":true}]`, "it is paris", true, ""},
		{"literal is not a regex", `["a.c"]`, "abc", false, ""},
		{"regex", `[{"pattern":"\\b4[0-9]\\b","regex":true}]`, "the answer is 42", true, ""},
		{"regex miss", `[{"pattern":"^42$","regex":true}]`, "the answer is 42", false, ""},
		{"regex ignore_case", `[{"pattern":"^yes","regex":true,"ignore_case":true}]`, "YES indeed", true, ""},
		{"bad regex", `[{"pattern":"(","regex":true}]`, "", false, "must_include[0] invalid regular expression"},
		{"empty literal", `[""]`, "", false, "must_include[0] is empty"},
		{"not an array", `"Paris"`, "", false, "must_include must be an array"},
		{"number entry", `[3]`, "", false, "must_include[0] must be a string or an object"},
		{"unknown key", `[{"pattern":"a","regexp":true}]`, "", false, `unknown key "regexp"`},
		{"no pattern", `[{"regex":true}]`, "", false, `needs a string "pattern"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse([]byte(`{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":0.5,"must_include":` + tc.pats + `}]}`))
			if err != nil {
				t.Fatal(err)
			}
			verr := Validate(&r)
			if tc.bad != "" {
				if verr == nil || !strings.Contains(verr.Error(), tc.bad) {
					t.Fatalf("Validate = %v, want %q", verr, tc.bad)
				}
				return
			}
			if verr != nil {
				t.Fatal(verr)
			}
			ps := r.Criteria[0].MustInclude
			if len(ps) != 1 {
				t.Fatalf("patterns = %v", ps)
			}
			if got := ps[0].Match(tc.text); got != tc.match {
				t.Errorf("%s.Match(%q) = %v, want %v", ps[0], tc.text, got, tc.match)
			}
		})
	}
}

// TestMustAvoidParsed: must_avoid reads as must_include does, and an
// unknown criterion key is still refused beside them.
func TestMustAvoidParsed(t *testing.T) {
	r, _ := Parse([]byte(`{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":0.5,"must_avoid":["TODO"]}]}`))
	if err := Validate(&r); err != nil || len(r.Criteria[0].MustAvoid) != 1 || !r.Criteria[0].MustAvoid[0].Match("a TODO") {
		t.Fatalf("must_avoid: %v %v", err, r.Criteria[0].MustAvoid)
	}
	r, _ = Parse([]byte(`{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":0.5,"must_inclde":["x"]}]}`))
	if err := Validate(&r); err == nil || !strings.Contains(err.Error(), `did you mean "criteria[0].must_include"`) {
		t.Fatalf("typo: %v", err)
	}
}

// TestPatternString: how a message names a pattern.
func TestPatternString(t *testing.T) {
	for _, tc := range []struct {
		p    Pattern
		want string
	}{
		{Pattern{Text: "Paris"}, `"Paris"`},
		{Pattern{Text: "as an ai", IgnoreCase: true}, `"as an ai" (any case)`},
		{Pattern{Text: "^yes", Regex: true}, `/^yes/`},
		{Pattern{Text: "^yes", Regex: true, IgnoreCase: true}, `/^yes/ (any case)`},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v.String() = %s, want %s", tc.p, got, tc.want)
		}
	}
}
