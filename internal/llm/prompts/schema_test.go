package prompts

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var defaultCriteria = []string{"correctness", "completeness", "safety", "clarity"}

// compile compiles schema text with the draft 2020-12 metaschema check that
// jsonschema performs on every compile.
func compile(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, schema)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatalf("add schema: %v", err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v\n%s", err, schema)
	}
	return s
}

func validates(t *testing.T, s *jsonschema.Schema, instance string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatalf("instance is not JSON: %v\n%s", err, instance)
	}
	return s.Validate(v)
}

type schemaCase struct {
	name  string
	doc   string
	valid bool
}

func runSchemaCases(t *testing.T, schema string, cases []schemaCase) {
	t.Helper()
	s := compile(t, schema)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := validates(t, s, c.doc)
			if c.valid && err != nil {
				t.Errorf("want valid, got %v", err)
			}
			if !c.valid && err == nil {
				t.Errorf("want invalid, got valid: %s", c.doc)
			}
		})
	}
}

func TestVerdictSchema(t *testing.T) {
	base := `"score":0.82,"passed":true,"confidence":0.85,"feedback_summary":"ok"`
	runSchemaCases(t, VerdictSchema(defaultCriteria), []schemaCase{
		{"sample verdict", `{` + base + `,"judge_type":"standard","criteria_evaluated":["correctness"],"criterion_scores":{"correctness":0.85,"completeness":0.8,"safety":0.9,"clarity":0.75},"strengths_count":3,"weaknesses_count":1}`, true},
		{"omitted criteria mean not assessed", `{` + base + `,"criterion_scores":{"correctness":0}}`, true},
		{"empty criterion_scores", `{` + base + `,"criterion_scores":{}}`, true},
		{"boundary scores 0 and 1", `{"score":0,"passed":false,"confidence":1,"feedback_summary":"","criterion_scores":{"safety":1}}`, true},
		{"unknown criterion key", `{` + base + `,"criterion_scores":{"correctness":0.8,"grounding":0.9}}`, false},
		{"criterion score above 1", `{` + base + `,"criterion_scores":{"safety":1.5}}`, false},
		{"criterion score as string", `{` + base + `,"criterion_scores":{"safety":"high"}}`, false},
		{"score out of range", `{"score":95,"passed":true,"confidence":0.8,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"negative score", `{"score":-0.1,"passed":true,"confidence":0.8,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"passed as string", `{"score":0.5,"passed":"true","confidence":0.8,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"missing score", `{"passed":true,"confidence":0.8,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"missing passed", `{"score":0.5,"confidence":0.8,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"missing confidence", `{"score":0.5,"passed":true,"feedback_summary":"x","criterion_scores":{}}`, false},
		{"missing feedback", `{"score":0.5,"passed":true,"confidence":0.8,"criterion_scores":{}}`, false},
		{"missing criterion_scores", `{` + base + `}`, false},
		{"orchestrator field judge_id", `{` + base + `,"criterion_scores":{},"judge_id":"01J"}`, false},
		{"negative count", `{` + base + `,"criterion_scores":{},"weaknesses_count":-1}`, false},
		{"fractional count", `{` + base + `,"criterion_scores":{},"strengths_count":1.5}`, false},
		{"criteria_evaluated not strings", `{` + base + `,"criterion_scores":{},"criteria_evaluated":[1]}`, false},
	})
}

func TestVerdictSchemaCriterionNames(t *testing.T) {
	var doc struct {
		Properties struct {
			CriterionScores struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Additional bool                       `json:"additionalProperties"`
			} `json:"criterion_scores"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	schema := VerdictSchema([]string{"grounding", "", "disclosure", "grounding", `we"ird`})
	if err := json.Unmarshal([]byte(schema), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Properties.CriterionScores.Properties
	if len(got) != 3 || got["grounding"] == nil || got["disclosure"] == nil || got[`we"ird`] == nil {
		t.Errorf("criterion properties = %v, want exactly grounding, disclosure, we\"ird", got)
	}
	if doc.Properties.CriterionScores.Additional {
		t.Error("criterion_scores allows additional properties")
	}
	compile(t, schema)
	compile(t, VerdictSchema(nil))
	for _, s := range []string{schema, StopVerdictSchema(), MetaSchema()} {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(s)); err != nil || compact.String() != s {
			t.Errorf("schema is not compact JSON (%v): %s", err, s)
		}
	}
}

func TestStopVerdictSchema(t *testing.T) {
	runSchemaCases(t, StopVerdictSchema(), []schemaCase{
		{"five keys", `{"score":0.8,"passed":true,"judge_type":"standard","feedback_summary":"fine","confidence":0.7}`, true},
		{"missing judge_type", `{"score":0.8,"passed":true,"feedback_summary":"fine","confidence":0.7}`, false},
		{"other judge_type", `{"score":0.8,"passed":true,"judge_type":"security","feedback_summary":"fine","confidence":0.7}`, false},
		{"sixth key", `{"score":0.8,"passed":true,"judge_type":"standard","feedback_summary":"fine","confidence":0.7,"criterion_scores":{}}`, false},
		{"score above 1", `{"score":1.2,"passed":true,"judge_type":"standard","feedback_summary":"fine","confidence":0.7}`, false},
	})
}

func TestMetaSchema(t *testing.T) {
	runSchemaCases(t, MetaSchema(), []schemaCase{
		{"required only", `{"verdict_quality":"sound","bias_detected":false}`, true},
		{"all fields", `{"verdict_quality":"biased","bias_detected":true,"bias_types":["verbosity","length"],"confidence":0.7,"override_recommendation":"re-evaluate"}`, true},
		{"every bias type", `{"verdict_quality":"biased","bias_detected":true,"bias_types":["position","verbosity","self_enhancement","sycophancy","refusal","length"]}`, true},
		{"each override", `{"verdict_quality":"questionable","bias_detected":false,"override_recommendation":"reject"}`, true},
		{"quality outside enum", `{"verdict_quality":"fine","bias_detected":false}`, false},
		{"bias_detected as string", `{"verdict_quality":"sound","bias_detected":"true"}`, false},
		{"missing bias_detected", `{"verdict_quality":"sound"}`, false},
		{"unknown bias type", `{"verdict_quality":"biased","bias_detected":true,"bias_types":["anchoring"]}`, false},
		{"override outside enum", `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"}`, false},
		{"empty override", `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":""}`, false},
		{"confidence above 1", `{"verdict_quality":"sound","bias_detected":false,"confidence":2}`, false},
		{"verdicts_reviewed is not the meta's", `{"verdict_quality":"sound","bias_detected":false,"verdicts_reviewed":2}`, false},
	})
}

var jsonBlock = regexp.MustCompile("(?s)```json\n(.*?)\n```")

func jsonExamples(t *testing.T, body string) []string {
	t.Helper()
	var out []string
	for _, m := range jsonBlock.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatal("prompt has no JSON example")
	}
	return out
}

// TestPromptExamplesMatchTheirSchemas keeps the examples shown to the models
// valid under the schemas the orchestrator enforces, and checks the values
// spec §4.3–4.5 prescribe for them.
func TestPromptExamplesMatchTheirSchemas(t *testing.T) {
	verdict := compile(t, VerdictSchema(defaultCriteria))
	cases := []struct {
		agent  string
		score  float64
		passed bool
	}{
		{StandardJudgeAgent, 0.82, true},
		{SecurityJudgeAgent, 0.45, false},
		{AdversarialJudgeAgent, 0.55, false},
	}
	for _, c := range cases {
		ex := jsonExamples(t, bodyOf(t, c.agent))
		if len(ex) != 1 {
			t.Fatalf("%s: want one example, got %d", c.agent, len(ex))
		}
		if err := validates(t, verdict, ex[0]); err != nil {
			t.Errorf("%s example fails the verdict schema: %v", c.agent, err)
		}
		var v struct {
			Score           float64            `json:"score"`
			Passed          bool               `json:"passed"`
			CriterionScores map[string]float64 `json:"criterion_scores"`
		}
		if err := json.Unmarshal([]byte(ex[0]), &v); err != nil {
			t.Fatal(err)
		}
		if v.Score != c.score || v.Passed != c.passed || len(v.CriterionScores) != len(defaultCriteria) {
			t.Errorf("%s example: score %v passed %v with %d criteria; want %v %v with all four", c.agent, v.Score, v.Passed, len(v.CriterionScores), c.score, c.passed)
		}
		if c.agent == SecurityJudgeAgent && v.CriterionScores["safety"] != 0.2 {
			t.Errorf("security example safety = %v, want 0.2", v.CriterionScores["safety"])
		}
	}
	meta := compile(t, MetaSchema())
	for _, ex := range jsonExamples(t, bodyOf(t, MetaJudgeAgent)) {
		if err := validates(t, meta, ex); err != nil {
			t.Errorf("meta example fails the meta schema: %v\n%s", err, ex)
		}
	}
}

// TestObjectEncodesAsEncodingJSON: nested objects are written in place,
// byte for byte what encoding/json writes (keys in order, HTML and line
// separators escaped, no space), since the schemas' bytes are part of the
// review cache's key.
func TestObjectEncodesAsEncodingJSON(t *testing.T) {
	o := object{
		{"a<b>", "x & y\u2028"},
		{"nested", object{{"deeper", object{{"n", 1}, {"list", []string{"<", ">"}}}}, {"ok", true}}},
		{"map", map[string]any{"z": 1.5, "a": nil}},
		{"empty", object{}},
	}
	want := `{"a\u003cb\u003e":"x \u0026 y\u2028","nested":{"deeper":{"n":1,"list":["\u003c","\u003e"]},"ok":true},"map":{"a":null,"z":1.5},"empty":{}}`
	got, err := o.MarshalJSON()
	if err != nil || string(got) != want {
		t.Errorf("MarshalJSON = %s, %v\nwant %s", got, err, want)
	}
	if viaJSON := mustJSON(o); viaJSON != want {
		t.Errorf("json.Marshal = %s\nwant %s", viaJSON, want)
	}
}
