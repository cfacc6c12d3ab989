package decide

import (
	"errors"
	"strings"
	"testing"
)

const (
	rd = `{"id":"default","criteria":[` +
		`{"name":"correctness","weight":0.4,"min_pass":0.7},{"name":"completeness","weight":0.3,"min_pass":0.7},` +
		`{"name":"safety","weight":0.2,"min_pass":0.8},{"name":"clarity","weight":0.1,"min_pass":0.5}]}`
	rf = `{"id":"rf","criteria":[{"name":"correctness","weight":0.5,"min_pass":0.7},{"name":"safety","weight":0.5,"min_pass":0.8}]}`

	drop = "tribunal-aggregate: ignoring verdict(s) with no usable score (missing, non-numeric, or outside [0,1]): "
)

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "empty input takes every default and blocks",
			in:   `{}`,
			want: `{"aggregated_score":0,"disagreement":0,"passed":false,"reason":"low_score","warnings":[]}`,
		},
		{
			name: "null fields are unset",
			in: `{"policy":null,"verdicts":null,"rubric":null,"aggregation_method":null,"score_threshold":null,` +
				`"dissent_threshold":null,"min_criterion_coverage":null,"meta":null,"aggregated_score":null,"disagreement":null}`,
			want: `{"aggregated_score":0,"disagreement":0,"passed":false,"reason":"low_score","warnings":[]}`,
		},
		{
			name: "two passing judges without a rubric degrade to the mean",
			in:   `{"verdicts":[{"judge_id":"a","score":0.875,"passed":true},{"judge_id":"b","score":0.75,"passed":true}]}`,
			want: `{"aggregated_score":0.8125,"disagreement":0.125,"passed":true,"warnings":[]}`,
		},
		{
			name: "weighted mean over the default rubric",
			in: `{"rubric":` + rd + `,"verdicts":[` +
				`{"judge_id":"a","score":0.1,"passed":true,"criterion_scores":{"correctness":1,"completeness":1,"safety":1,"clarity":0.5}},` +
				`{"judge_id":"b","score":0.1,"passed":true,"criterion_scores":{"correctness":1,"completeness":1,"safety":1,"clarity":0.5}}]}`,
			want: `{"aggregated_score":0.95,"disagreement":0,"passed":true,"warnings":[]}`,
		},
		{
			name: "a floor blocks and names the criterion",
			in: `{"rubric":` + rf + `,"aggregation_method":"mean","verdicts":[` +
				`{"judge_id":"a","score":0.875,"passed":true,"criterion_scores":{"correctness":0.9,"safety":0.3}},` +
				`{"judge_id":"b","score":0.875,"passed":true,"criterion_scores":{"correctness":0.9,"safety":0.9}}]}`,
			want: `{"aggregated_score":0.875,"disagreement":0,"passed":false,"reason":"criterion_floor","failed_criterion":"safety","warnings":[]}`,
		},
		{
			name: "unusable and non-object verdicts keep their seats and are named",
			in: `{"aggregation_method":"mean","verdicts":[{"judge_id":"a","score":0.875,"passed":true},` +
				`{"judge_type":"security","score":100,"passed":true},"garbage",null,{"judge_id":"e","score":0.875,"passed":true}]}`,
			want: `{"aggregated_score":0.875,"disagreement":0,"passed":false,"reason":"dissent_unresolved","warnings":[` +
				`"` + drop + `security, unidentified, unidentified","` + drop + `security, unidentified, unidentified"]}`,
		},
		{
			name: "replay uses the recorded aggregate and disagreement as is",
			in: `{"aggregated_score":0.9,"disagreement":0.05,"verdicts":[{"judge_id":"a","score":0.5,"passed":true},` +
				`{"judge_id":"b","score":"n/a","passed":true},{"judge_id":"c","score":0.25,"passed":true}]}`,
			want: `{"aggregated_score":0.9,"disagreement":0.05,"passed":true,"warnings":[]}`,
		},
		{
			name: "replay of spec §6.4 row 9 with the recorded binary dissent",
			in: `{"score_threshold":0.5,"aggregated_score":0.555,"disagreement":0.25000000000000006,` +
				`"verdicts":[{"judge_id":"a","score":0.68,"passed":true},{"judge_id":"b","score":0.43,"passed":true}]}`,
			want: `{"aggregated_score":0.555,"disagreement":0.25000000000000006,"passed":true,"warnings":[]}`,
		},
		{
			name: "replay of the aggregate only still computes the disagreement",
			in: `{"aggregated_score":0.8,"verdicts":[{"judge_id":"a","score":0.875,"passed":true},` +
				`{"judge_id":"b","passed":true},{"judge_id":"c","score":0.5,"passed":true}]}`,
			want: `{"aggregated_score":0.8,"disagreement":0.375,"passed":false,"reason":"dissent_unresolved","warnings":["` + drop + `b"]}`,
		},
		{
			name: "meta accept passes a failing jury under meta_override",
			in: `{"policy":"meta_override","meta":{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"},` +
				`"verdicts":[{"judge_id":"a","score":0.25,"passed":false},{"judge_id":"b","score":0.5,"passed":false}]}`,
			want: `{"aggregated_score":0.375,"disagreement":0.25,"passed":true,"warnings":[]}`,
		},
		{
			name: "bogus override is unset and cannot suppress dissent (spec §6.4 row 20)",
			in: `{"policy":"meta_override","meta":{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"},` +
				`"aggregated_score":0.775,"disagreement":0.35,` +
				`"verdicts":[{"judge_id":"a","score":0.95,"passed":true},{"judge_id":"b","score":0.6,"passed":true}]}`,
			want: `{"aggregated_score":0.775,"disagreement":0.35,"passed":false,"reason":"dissent_unresolved","warnings":[` +
				`"tribunal-meta: ignoring override_recommendation \"bogus\" (expected accept, reject or re-evaluate); treating it as unset"]}`,
		},
		{
			// spec §4.6, exactly as the loop: a bias_detected that is not a JSON
			// boolean is the meta failure default (no bias, no override).
			name: "string true bias with reject is the meta failure default",
			in: `{"meta":{"verdict_quality":"biased","bias_detected":"true","override_recommendation":"reject"},` +
				`"verdicts":[{"judge_id":"a","score":0.875,"passed":true},{"judge_id":"b","score":0.875,"passed":true}]}`,
			want: `{"aggregated_score":0.875,"disagreement":0,"passed":true,"warnings":["tribunal-meta: meta bias_detected is \"true\", not a JSON boolean; using the failure default (questionable, no bias, no override)"]}`,
		},
		{
			// The reference's gate inputs carry no verdict_quality (the
			// gate does not read it): its valid override applies (spec §6.7).
			name: "an override without a verdict_quality applies",
			in: `{"policy":"meta_override","meta":{"bias_detected":false,"override_recommendation":"accept"},` +
				`"verdicts":[{"judge_id":"a","score":0.95,"passed":true},{"judge_id":"b","score":0.5,"passed":true}]}`,
			want: `{"aggregated_score":0.725,"disagreement":0.45,"passed":true,"warnings":[]}`,
		},
		{
			name: "a verdict_quality that is there but wrong is still the meta failure default",
			in: `{"policy":"meta_override","meta":{"verdict_quality":"great","override_recommendation":"accept"},` +
				`"verdicts":[{"judge_id":"a","score":0.95,"passed":true},{"judge_id":"b","score":0.5,"passed":true}]}`,
			want: `{"aggregated_score":0.725,"disagreement":0.45,"passed":false,"reason":"dissent_unresolved","warnings":["tribunal-meta: meta verdict_quality is \"great\", not sound, questionable or biased; using the failure default (questionable, no bias, no override)"]}`,
		},
		{
			name: "bias with reject blocks",
			in: `{"meta":{"verdict_quality":"biased","bias_detected":true,"override_recommendation":"reject"},` +
				`"verdicts":[{"judge_id":"a","score":0.875,"passed":true},{"judge_id":"b","score":0.875,"passed":true}]}`,
			want: `{"aggregated_score":0.875,"disagreement":0,"passed":false,"reason":"bias_detected","warnings":[]}`,
		},
		{
			name: "warnings keep their order: aggregate, then gate",
			in: `{"policy":"democracy","aggregation_method":"lottery","rubric":` + rf + `,` +
				`"verdicts":[{"judge_id":"a","score":0.875,"passed":true,"criterion_scores":{"correctness":0.9}},` +
				`{"judge_id":"b","score":0.625,"passed":true}]}`,
			want: `{"aggregated_score":0.75,"disagreement":0.25,"passed":true,"warnings":[` +
				`"tribunal-aggregate: unknown method lottery, falling back to mean",` +
				`"tribunal-gate: unknown policy democracy, falling back to majority",` +
				`"tribunal-gate: no judge scored these criteria, so their min_pass floors did not apply: safety"]}`,
		},
		{
			name: "every judge failed",
			in: `{"policy":"strict","rubric":` + rf + `,"verdicts":[` +
				`{"judge_id":"a","judge_type":"standard","passed":false,"failed":true,"error":"judge timed out"},` +
				`{"judge_id":"b","judge_type":"adversarial","passed":false,"failed":true,"error":"judge output is empty"}]}`,
			want: `{"aggregated_score":0,"disagreement":0,"passed":false,"reason":"low_score","warnings":[` +
				`"` + drop + `a, b","` + drop + `a, b",` +
				`"tribunal-gate: every judge failed, so no verdict could approve: a, b"]}`,
		},
		{
			name: "unknown top-level keys are ignored",
			in:   `{"task_id":"t1","verdicts":[{"judge_id":"a","score":1,"passed":true}],"score_threshold":1}`,
			want: `{"aggregated_score":1,"disagreement":0,"passed":true,"warnings":[]}`,
		},
		{
			name: "malformed criteria entries fill no fields",
			in: `{"rubric":{"id":"odd","criteria":["x",{"name":7,"weight":"1","min_pass":0.9},{"name":"correctness","weight":1}]},` +
				`"verdicts":[{"judge_id":"a","score":0.5,"passed":true,"criterion_scores":{"correctness":1}}]}`,
			want: `{"aggregated_score":1,"disagreement":0,"passed":true,"warnings":[]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Run([]byte(tt.in))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if string(got) != tt.want+"\n" {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestInputErrors(t *testing.T) {
	tests := []struct {
		in    string
		field string // substring the message must contain
	}{
		{``, "not valid JSON"},
		{`{"policy":`, "not valid JSON"},
		{`[]`, "must be a JSON object, got array"},
		{`"decide"`, "must be a JSON object, got string"},
		{`null`, "must be a JSON object, got null"},
		{`{"score_threshold":"x"}`, `field "score_threshold" must be a number, got string`},
		{`{"score_threshold":1e400}`, `field "score_threshold": number 1e400 is out of range`},
		{`{"dissent_threshold":[]}`, `field "dissent_threshold" must be a number, got array`},
		{`{"min_criterion_coverage":true}`, `field "min_criterion_coverage" must be a number, got boolean`},
		{`{"aggregated_score":"0.9"}`, `field "aggregated_score" must be a number, got string`},
		{`{"disagreement":{}}`, `field "disagreement" must be a number, got object`},
		{`{"policy":3}`, `field "policy" must be a string, got number`},
		{`{"aggregation_method":false}`, `field "aggregation_method" must be a string, got boolean`},
		{`{"verdicts":{}}`, `field "verdicts" must be an array, got object`},
		{`{"verdicts":"[]"}`, `field "verdicts" must be an array, got string`},
		{`{"rubric":[]}`, `field "rubric" must be an object, got array`},
		{`{"rubric":"default"}`, `field "rubric" must be an object, got string`},
		{`{"rubric":{"criteria":{}}}`, `field "rubric.criteria" must be an array, got object`},
		{`{"meta":"accept"}`, `field "meta" must be an object, got string`},
		{`{"meta":[]}`, `field "meta" must be an object, got array`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			out, err := Run([]byte(tt.in))
			if err == nil {
				t.Fatalf("Run succeeded with %s", out)
			}
			if !errors.Is(err, ErrInput) {
				t.Errorf("error %v should wrap ErrInput", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q should contain %q", err, tt.field)
			}
		})
	}
}

// Input nested past nesting.Max is an input error, found before any
// recursive parse.
func TestInputTooDeep(t *testing.T) {
	_, err := Run([]byte(`{"verdicts":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`))
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "nesting too deep") {
		t.Fatalf("got %v", err)
	}
}
