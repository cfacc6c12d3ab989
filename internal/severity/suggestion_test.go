package severity

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSuggestionParse: a judge's optional replacement lines are read, a
// malformed one is dropped with a warning and the finding kept (new
// feature: findings carried no fix before).
func TestSuggestionParse(t *testing.T) {
	tests := []struct {
		name, item string
		want       *Suggestion
		warned     bool
	}{
		{"one line", `{"severity":"minor","message":"m","file":"x.go","line":3,"suggestion":{"start_line":3,"end_line":3,"lines":["\treturn nil"]}}`,
			&Suggestion{3, 3, []string{"\treturn nil"}}, false},
		{"deletion", `{"severity":"minor","message":"m","suggestion":{"start_line":3,"end_line":4,"lines":[]}}`, &Suggestion{3, 4, []string{}}, false},
		{"none", `{"severity":"minor","message":"m"}`, nil, false},
		{"reversed range", `{"severity":"minor","message":"m","suggestion":{"start_line":4,"end_line":3,"lines":["x"]}}`, nil, true},
		{"not lines", `{"severity":"minor","message":"m","suggestion":{"start_line":1,"end_line":1,"lines":"x"}}`, nil, true},
		{"no range", `{"severity":"minor","message":"m","suggestion":{"lines":["x"]}}`, nil, true},
		{"too long", `{"severity":"minor","message":"m","suggestion":{"start_line":1,"end_line":1,"lines":[` + strings.Repeat(`"x",`, MaxSuggestionLines) + `"x"]}}`, nil, true},
	}
	for _, tc := range tests {
		fs, warns := FromVerdictJSON(map[string]json.RawMessage{"findings": json.RawMessage("[" + tc.item + "]")})
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings, want the finding kept", tc.name, len(fs))
		}
		got, _ := json.Marshal(fs[0].Suggestion)
		want, _ := json.Marshal(tc.want)
		if string(got) != string(want) || (len(warns) > 0) != tc.warned {
			t.Errorf("%s: suggestion %s, warnings %q; want %s, warned %v", tc.name, got, warns, want, tc.warned)
		}
	}
}
