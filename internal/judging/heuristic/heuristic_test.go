package heuristic

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// added is a diff adding lines to path (a new file).
func added(path string, lines ...string) string {
	var b strings.Builder
	b.WriteString("diff --git a/" + path + " b/" + path + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + path + "\n")
	b.WriteString("@@ -0,0 +1," + itoa(len(lines)) + " @@\n")
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// changed is a diff of path replacing old lines with new ones at line 10.
func changed(path string, old, new []string) string {
	var b strings.Builder
	b.WriteString("diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n")
	b.WriteString("@@ -10," + itoa(len(old)) + " +10," + itoa(len(new)) + " @@\n")
	for _, l := range old {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range new {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

func deleted(path string, lines ...string) string {
	var b strings.Builder
	b.WriteString("diff --git a/" + path + " b/" + path + "\ndeleted file mode 100644\n--- a/" + path + "\n+++ /dev/null\n")
	b.WriteString("@@ -1," + itoa(len(lines)) + " +0,0 @@\n")
	for _, l := range lines {
		b.WriteString("-" + l + "\n")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// fakeKey is an AWS-shaped key id, built so no scanner flags this file.
var fakeKey = "AKIA" + strings.Repeat("Q", 16)

func TestRules(t *testing.T) {
	cases := []struct {
		name  string
		diff  string
		want  []string // "rule file:line"
		score float64
		pass  bool
	}{
		{"clean code with test", added("calc.go", "package calc", "func Add(a, b int) int { return a + b }") +
			added("calc_test.go", "package calc", "func TestAdd(t *testing.T) {}"), nil, 1, true},
		{"docs only", added("README.md", "# Title", "Some words."), nil, 1, true},
		{"empty", "", []string{"empty-change :0"}, 0, false},
		{"code without test", added("calc.go", "package calc", "func Add() {}"), []string{"untested-code calc.go:1"}, 0.8, true},
		{"todo in docs", added("NOTES.md", "ok", "TODO: finish"), []string{"todo NOTES.md:2"}, 0.9, true},
		{"debug print in js", added("app.js", "const x = 1;", "console.log(x);") + added("app.test.js", "test('x', () => {})"),
			[]string{"debug-print app.js:2"}, 0.9, true},
		{"console.log in a test is fine", added("app.test.js", "console.log('x')"), nil, 1, true},
		{"secret", added("config.py", "KEY = '"+fakeKey+"'") + added("test_config.py", "def test_x(): pass"),
			[]string{"secret config.py:1"}, 0.5, false},
		{"password literal", added("settings.yml", `password: "hunter22hunter"`), []string{"secret settings.yml:1"}, 0.5, false},
		{"removed tests", changed("calc_test.go", []string{"func TestAdd(t *testing.T) {", "func TestSub(t *testing.T) {"}, []string{"// gone"}),
			[]string{"removed-tests calc_test.go:0"}, 0.7, false},
		{"deleted test file", deleted("old_test.go", "package old", "func TestOld(t *testing.T) {}"),
			[]string{"removed-tests :0"}, 0.7, false},
		{"test renamed in place", changed("x_test.go", []string{"func TestA(t *testing.T) {"}, []string{"func TestB(t *testing.T) {"}), nil, 1, true},
		{"many findings", added("a.go", "// TODO one", "// FIXME two", "debugger") + added("a_test.go", "x"),
			[]string{"debug-print a.go:3", "todo a.go:1", "todo a.go:2"}, 0.8, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Judge(Input{Files: unidiff.Parse([]byte(c.diff)), Threshold: 0.75})
			var got []string
			for _, f := range res.Findings {
				got = append(got, f.Rule+" "+f.File+":"+itoa(f.Line))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
			if res.Score != c.score || res.Passed != c.pass {
				t.Errorf("score %.2f passed %v, want %.2f %v", res.Score, res.Passed, c.score, c.pass)
			}
			if !strings.HasPrefix(res.Feedback, "heuristic judge (no model): ") {
				t.Errorf("feedback not labelled: %q", res.Feedback)
			}
		})
	}
}

func TestHugeChange(t *testing.T) {
	lines := make([]string, HugeLines+1)
	for i := range lines {
		lines[i] = "x"
	}
	var b strings.Builder
	b.WriteString("diff --git a/data.txt b/data.txt\nnew file mode 100644\n--- /dev/null\n+++ b/data.txt\n@@ -0,0 +1,1001 @@\n")
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	res := Judge(Input{Files: unidiff.Parse([]byte(b.String())), Threshold: 0.75})
	if len(res.Findings) != 1 || res.Findings[0].Rule != "huge-change" || res.Score != 0.9 {
		t.Errorf("findings %+v score %.2f, want one huge-change at 0.90", res.Findings, res.Score)
	}
}

// TestCriterionAreas: a criterion is scored on the rules of its area
// (and of AreaAll); an unrecognised name on every rule.
func TestCriterionAreas(t *testing.T) {
	diff := added("config.py", "KEY = '"+fakeKey+"'  # TODO rotate")
	res := Judge(Input{Files: unidiff.Parse([]byte(diff)), Threshold: 0.75,
		Criteria: []string{"correctness", "safety", "test_coverage", "code_quality"}})
	want := map[string]float64{"correctness": 0.2, "safety": 0.5, "test_coverage": 0.8, "code_quality": 0.9}
	if !reflect.DeepEqual(res.CriterionScores, want) {
		t.Errorf("criterion scores = %v, want %v", res.CriterionScores, want)
	}
}

// TestJSONIsAVerdict: the output carries every key the verdict schema
// requires, findings in the severity package's shape, the same bytes on
// every call.
func TestJSONIsAVerdict(t *testing.T) {
	in := Input{Files: unidiff.Parse([]byte(added("a.go", "// TODO x"))), Criteria: []string{"correctness"}, Threshold: 0.75}
	a, b := Judge(in).JSON(), Judge(in).JSON()
	if string(a) != string(b) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(a, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"score", "passed", "criterion_scores", "confidence", "feedback_summary", "findings"} {
		if _, ok := v[k]; !ok {
			t.Errorf("missing %q in %s", k, a)
		}
	}
	if !strings.Contains(string(v["findings"]), `"file":"a.go","line":1`) {
		t.Errorf("findings = %s", v["findings"])
	}
}

func TestMeta(t *testing.T) {
	cases := []struct {
		in   MetaInput
		want string
	}{
		{MetaInput{Scores: []float64{0.8, 0.9}}, "sound"},
		{MetaInput{Scores: []float64{0.8}, Failed: 1}, "questionable"},
		{MetaInput{Scores: []float64{0.8}, Probes: 2}, "questionable"},
		{MetaInput{Scores: []float64{0.2, 0.9}}, "questionable"},
	}
	for _, c := range cases {
		var m struct {
			Quality string `json:"verdict_quality"`
			Bias    bool   `json:"bias_detected"`
		}
		if err := json.Unmarshal(Meta(c.in), &m); err != nil || m.Quality != c.want || m.Bias {
			t.Errorf("Meta(%+v) = %+v (%v), want %s and no bias", c.in, m, err, c.want)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"a_test.go": true, "test_a.py": true, "a.test.ts": true, "a.spec.js": true, "FooTest.java": true,
		"tests/helpers.py": true, "pkg/testdata/x.json": true, "a.go": false, "latest.go": false, "contest/x.go": false,
	} {
		if IsTest(p) != want {
			t.Errorf("IsTest(%q) = %v", p, !want)
		}
	}
}
