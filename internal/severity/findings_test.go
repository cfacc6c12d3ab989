package severity

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func obj(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return m
}

func TestFromVerdictJSON(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		want     []Finding
		warnings []string // substrings, one per expected warning, in order
	}{
		{name: "absent", in: `{"score":0.9}`},
		{name: "null", in: `{"findings":null}`},
		{name: "empty", in: `{"findings":[]}`},
		{name: "not an array", in: `{"findings":{"severity":"major"}}`,
			warnings: []string{"findings is not an array"}},
		{name: "string", in: `{"findings":"none"}`,
			warnings: []string{"findings is not an array"}},
		{name: "full finding", in: `{"findings":[{"severity":"major","message":"nil map write","file":"a.go","line":12}]}`,
			want: []Finding{{Severity: "major", Message: "nil map write", File: "a.go", Line: 12}}},
		{name: "criterion kept", in: `{"findings":[{"severity":"major","message":"m","criterion":" safety "}]}`,
			want: []Finding{{Severity: "major", Message: "m", Criterion: "safety"}}},
		{name: "bad criterion ignored", in: `{"findings":[{"severity":"major","message":"m","criterion":3}]}`,
			want:     []Finding{{Severity: "major", Message: "m"}},
			warnings: []string{"criterion is not a string"}},
		{name: "severity canonicalised", in: `{"findings":[{"severity":" Critical ","message":"x"}]}`,
			want: []Finding{{Severity: "critical", Message: "x"}}},
		{name: "unknown severity dropped", in: `{"findings":[{"severity":"severe","message":"x"},{"severity":"low","message":"y"}]}`,
			want:     []Finding{{Severity: "low", Message: "y"}},
			warnings: []string{`finding 1 has unknown severity "severe"; dropped`}},
		{name: "missing severity dropped", in: `{"findings":[{"message":"x"}]}`,
			warnings: []string{"finding 1 has no severity string"}},
		{name: "numeric severity dropped", in: `{"findings":[{"severity":5,"message":"x"}]}`,
			warnings: []string{"finding 1 has no severity string"}},
		{name: "non-object dropped", in: `{"findings":["blocker",{"severity":"info","message":"ok"}]}`,
			want:     []Finding{{Severity: "info", Message: "ok"}},
			warnings: []string{"finding 1 is not an object"}},
		{name: "missing message kept", in: `{"findings":[{"severity":"blocker"}]}`,
			want:     []Finding{{Severity: "blocker"}},
			warnings: []string{"finding 1 (blocker) has no message; kept for its severity"}},
		{name: "blank message kept", in: `{"findings":[{"severity":"minor","message":"   "}]}`,
			want:     []Finding{{Severity: "minor"}},
			warnings: []string{"has no message"}},
		{name: "bad file ignored", in: `{"findings":[{"severity":"low","message":"m","file":7}]}`,
			want:     []Finding{{Severity: "low", Message: "m"}},
			warnings: []string{"file is not a string"}},
		{name: "null file and line are absent", in: `{"findings":[{"severity":"low","message":"m","file":null,"line":null}]}`,
			want: []Finding{{Severity: "low", Message: "m"}}},
		{name: "line zero ignored", in: `{"findings":[{"severity":"low","message":"m","line":0}]}`,
			want:     []Finding{{Severity: "low", Message: "m"}},
			warnings: []string{"line is not an integer >= 1"}},
		{name: "fractional line ignored", in: `{"findings":[{"severity":"low","message":"m","line":2.5}]}`,
			want:     []Finding{{Severity: "low", Message: "m"}},
			warnings: []string{"line is not an integer"}},
		{name: "string line ignored", in: `{"findings":[{"severity":"low","message":"m","line":"3"}]}`,
			want:     []Finding{{Severity: "low", Message: "m"}},
			warnings: []string{"line is not an integer"}},
		{name: "integral float line kept", in: `{"findings":[{"severity":"low","message":"m","line":3.0}]}`,
			want: []Finding{{Severity: "low", Message: "m", Line: 3}}},
		{name: "worst first, stable among equals", in: `{"findings":[
			{"severity":"info","message":"a"},{"severity":"major","message":"b"},
			{"severity":"info","message":"c"},{"severity":"blocker","message":"d"},{"severity":"major","message":"e"}]}`,
			want: []Finding{
				{Severity: "blocker", Message: "d"}, {Severity: "major", Message: "b"}, {Severity: "major", Message: "e"},
				{Severity: "info", Message: "a"}, {Severity: "info", Message: "c"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, warns := FromVerdictJSON(obj(t, c.in))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("findings = %+v\nwant       %+v", got, c.want)
			}
			if len(warns) != len(c.warnings) {
				t.Fatalf("warnings = %q, want %d matching %q", warns, len(c.warnings), c.warnings)
			}
			for i, w := range c.warnings {
				if !strings.Contains(warns[i], w) || !strings.HasPrefix(warns[i], "tribunal-severity: ") {
					t.Errorf("warning %d = %q, want it to contain %q", i, warns[i], w)
				}
			}
		})
	}
}

func TestFromVerdictJSONBounds(t *testing.T) {
	var items []string
	for i := range MaxFindings + 10 {
		items = append(items, fmt.Sprintf(`{"severity":"info","message":"n%d"}`, i))
	}
	// The one serious finding comes last: truncation must not lose it.
	items = append(items, `{"severity":"blocker","message":"`+strings.Repeat("é", MaxMessageBytes)+`","file":"`+strings.Repeat("d/", MaxFileBytes)+`"}`)
	got, warns := FromVerdictJSON(obj(t, `{"findings":[`+strings.Join(items, ",")+`]}`))
	if len(got) != MaxFindings {
		t.Fatalf("kept %d findings, want %d", len(got), MaxFindings)
	}
	if got[0].Severity != "blocker" {
		t.Errorf("first kept finding is %q, want the blocker", got[0].Severity)
	}
	if l := len(got[0].Message); l > MaxMessageBytes || !strings.HasSuffix(got[0].Message, "…") {
		t.Errorf("message is %d bytes (suffix %q), want <= %d and marked", l, got[0].Message[len(got[0].Message)-3:], MaxMessageBytes)
	}
	if l := len(got[0].File); l > MaxFileBytes {
		t.Errorf("file is %d bytes, want <= %d", l, MaxFileBytes)
	}
	if !strings.Contains(strings.Join(warns, "\n"), fmt.Sprintf("%d findings reported; kept the %d most serious", MaxFindings+11, MaxFindings)) {
		t.Errorf("warnings = %q, want the truncation warning", warns)
	}
	if w, ok := WorstOf(got); !ok || w != Blocker {
		t.Errorf("WorstOf = %v, %v; want blocker", w, ok)
	}
}

func TestWorstOf(t *testing.T) {
	cases := []struct {
		in   []Finding
		want Level
		ok   bool
	}{
		{nil, None, false},
		{[]Finding{{Severity: "low"}, {Severity: "critical"}, {Severity: "minor"}}, Critical, true},
		{[]Finding{{Severity: "bogus"}}, None, false},
		{[]Finding{{Severity: "MAJOR"}}, Major, true},
		// An unverified finding (its file or line does not exist) is shown
		// but never counts toward the policy.
		{[]Finding{{Severity: "blocker", File: "nope.go", Unverified: true}, {Severity: "minor"}}, Minor, true},
		{[]Finding{{Severity: "critical", Unverified: true}}, None, false},
		// A refuted finding (spec §6.8) is kept but never counts; a
		// confirmed one, or one whose verification failed, does.
		{[]Finding{{Severity: "blocker", Verification: Refuted}, {Severity: "minor"}}, Minor, true},
		{[]Finding{{Severity: "blocker", Verification: Confirmed}}, Blocker, true},
		{[]Finding{{Severity: "blocker", Verification: VerifyFailed}}, Blocker, true},
	}
	for _, c := range cases {
		got, ok := WorstOf(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("WorstOf(%v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFindingsSchema(t *testing.T) {
	raw, err := json.Marshal(map[string]any{
		"type":       "object",
		"properties": map[string]any{"findings": FindingsSchema()},
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v\n%s", err, raw)
	}
	cases := []struct {
		doc   string
		valid bool
	}{
		{`{}`, true},
		{`{"findings":[]}`, true},
		{`{"findings":[{"severity":"major","message":"m"}]}`, true},
		{`{"findings":[{"severity":"blocker","message":"m","file":"x.go","line":1}]}`, true},
		{`{"findings":[{"severity":"Major","message":"m"}]}`, false},
		{`{"findings":[{"severity":"severe","message":"m"}]}`, false},
		{`{"findings":[{"severity":"major"}]}`, false},
		{`{"findings":[{"message":"m"}]}`, false},
		{`{"findings":[{"severity":"major","message":""}]}`, false},
		{`{"findings":[{"severity":"major","message":"m","line":0}]}`, false},
		{`{"findings":[{"severity":"major","message":"m","line":1.5}]}`, false},
		{`{"findings":[{"severity":"major","message":"m","extra":1}]}`, false},
		{`{"findings":{"severity":"major","message":"m"}}`, false},
		{`{"findings":[` + strings.Repeat(`{"severity":"info","message":"m"},`, MaxFindings) + `{"severity":"info","message":"m"}]}`, false},
	}
	for _, c := range cases {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		err = s.Validate(inst)
		if (err == nil) != c.valid {
			t.Errorf("%s: valid = %v, want %v (%v)", c.doc, err == nil, c.valid, err)
		}
		// Whatever the schema accepts, the reader must accept without
		// warnings: the two must not drift apart.
		if c.valid {
			if _, warns := FromVerdictJSON(obj(t, c.doc)); len(warns) != 0 {
				t.Errorf("%s: schema-valid findings produced warnings %q", c.doc, warns)
			}
		}
	}
	// Each call is a fresh value.
	a := FindingsSchema()
	a["type"] = "object"
	if FindingsSchema()["type"] != "array" {
		t.Error("FindingsSchema shares state between calls")
	}
}

func TestMarkUnverified(t *testing.T) {
	exists := func(file string, line int) bool { return file == "a.go" && line <= 10 }
	in := []Finding{
		{Severity: "major", Message: "whole change"},
		{Severity: "major", File: "a.go", Line: 3},
		{Severity: "major", File: "a.go", Line: 11},
		{Severity: "major", File: "ghost.go"},
	}
	got := MarkUnverified(in, exists)
	want := []bool{false, false, true, true}
	for i := range want {
		if got[i].Unverified != want[i] {
			t.Errorf("finding %d (%+v): unverified = %v, want %v", i, got[i], got[i].Unverified, want[i])
		}
	}
	if level, _ := WorstOf(got); level != Major {
		t.Errorf("the verified findings still count: worst %v", level)
	}
}
