package verdict

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const overrideWarning = "tribunal-meta: ignoring override_recommendation "

func TestNormaliseMeta(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     Meta
		failed   bool     // want the failure default; want is then ignored
		warnings []string // substrings, one per expected warning
	}{
		{
			name: "minimal sound",
			text: `{"verdict_quality":"sound","bias_detected":false}`,
			want: Meta{VerdictQuality: "sound"},
		},
		{
			name: "all fields in a fence",
			text: "```json\n" + `{"verdict_quality":"biased","bias_detected":true,"bias_types":["sycophancy","length"],` +
				`"confidence":0.8,"override_recommendation":"reject","task_id":"x","verdicts_reviewed":3}` + "\n```",
			want: Meta{VerdictQuality: "biased", BiasDetected: true, BiasTypes: []string{"sycophancy", "length"},
				Confidence: ptrF(0.8), Override: "reject"},
		},
		{name: "override accept", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`,
			want: Meta{VerdictQuality: "sound", Override: "accept"}},
		{name: "override re-evaluate", text: `{"verdict_quality":"questionable","bias_detected":false,"override_recommendation":"re-evaluate"}`,
			want: Meta{VerdictQuality: "questionable", Override: "re-evaluate"}},
		// spec §4.6 step 1: failure defaults.
		{name: "not JSON", text: "The jury looks fine.", failed: true},
		{name: "prose around JSON", text: `Result: {"verdict_quality":"sound","bias_detected":false}`, failed: true},
		{name: "array", text: `[{"verdict_quality":"sound","bias_detected":false}]`, failed: true},
		{name: "empty", text: "", failed: true},
		{name: "quality missing", text: `{"bias_detected":false}`, failed: true},
		{name: "quality outside enum", text: `{"verdict_quality":"great","bias_detected":false}`, failed: true},
		{name: "quality not a string", text: `{"verdict_quality":1,"bias_detected":false}`, failed: true},
		{name: "bias string true", text: `{"verdict_quality":"biased","bias_detected":"true","override_recommendation":"reject"}`, failed: true},
		{name: "bias missing", text: `{"verdict_quality":"sound"}`, failed: true},
		{name: "bias null", text: `{"verdict_quality":"sound","bias_detected":null}`, failed: true},
		{name: "bias number", text: `{"verdict_quality":"sound","bias_detected":1}`, failed: true},
		// spec §4.6 step 2: override outside the enum is unset with a warning.
		{name: "bogus override", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"}`,
			want: Meta{VerdictQuality: "sound"}, warnings: []string{overrideWarning + `"bogus"`}},
		{name: "empty override", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":""}`,
			want: Meta{VerdictQuality: "sound"}, warnings: []string{overrideWarning + `""`}},
		{name: "null override", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":null}`,
			want: Meta{VerdictQuality: "sound"}, warnings: []string{overrideWarning + `null`}},
		{name: "override wrong case", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"Accept"}`,
			want: Meta{VerdictQuality: "sound"}, warnings: []string{overrideWarning + `"Accept"`}},
		{name: "override array", text: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":["reject"]}`,
			want: Meta{VerdictQuality: "sound"}, warnings: []string{overrideWarning + `["reject"]`}},
		// spec §4.6 step 3: bias_types keeps enum values only; non-array omitted.
		{name: "bias_types filtered", text: `{"verdict_quality":"biased","bias_detected":true,"bias_types":["position","halo",3,"refusal"]}`,
			want: Meta{VerdictQuality: "biased", BiasDetected: true, BiasTypes: []string{"position", "refusal"}}},
		{name: "bias_types none valid", text: `{"verdict_quality":"biased","bias_detected":true,"bias_types":["halo"]}`,
			want: Meta{VerdictQuality: "biased", BiasDetected: true, BiasTypes: []string{}}},
		{name: "bias_types string", text: `{"verdict_quality":"biased","bias_detected":true,"bias_types":"position"}`,
			want: Meta{VerdictQuality: "biased", BiasDetected: true}},
		{name: "bias_types null", text: `{"verdict_quality":"biased","bias_detected":true,"bias_types":null}`,
			want: Meta{VerdictQuality: "biased", BiasDetected: true}},
		// spec §4.6 step 4: confidence only in [0,1].
		{name: "confidence 1.5", text: `{"verdict_quality":"sound","bias_detected":false,"confidence":1.5}`,
			want: Meta{VerdictQuality: "sound"}},
		{name: "confidence string", text: `{"verdict_quality":"sound","bias_detected":false,"confidence":"0.5"}`,
			want: Meta{VerdictQuality: "sound"}},
		{name: "confidence 0", text: `{"verdict_quality":"sound","bias_detected":false,"confidence":0}`,
			want: Meta{VerdictQuality: "sound", Confidence: ptrF(0)}},
		{name: "confidence 1", text: `{"verdict_quality":"sound","bias_detected":false,"confidence":1}`,
			want: Meta{VerdictQuality: "sound", Confidence: ptrF(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := NormaliseMeta(tt.text)
			if tt.failed {
				if !got.Failed || got.Error == "" || got.VerdictQuality != "questionable" || got.BiasDetected ||
					got.Override != "" || got.BiasTypes != nil || got.Confidence != nil {
					t.Errorf("got %+v; want the failure default", got)
				}
				if len(warnings) != 0 {
					t.Errorf("warnings %q", warnings)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings %q; want %d", warnings, len(tt.warnings))
			}
			for i, w := range tt.warnings {
				if !strings.HasPrefix(warnings[i], w+" ") {
					t.Errorf("warning %q; want prefix %q", warnings[i], w)
				}
			}
		})
	}
}

func TestFailedMeta(t *testing.T) {
	m := FailedMeta("meta-judge timed out")
	want := Meta{VerdictQuality: "questionable", Failed: true, Error: "meta-judge timed out"}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v", m)
	}
}

func TestMetaFromJSON(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     Meta
		warnings int
		wantErr  bool
	}{
		{name: "absent", in: "", want: Meta{}},
		{name: "null", in: "null", want: Meta{}},
		{name: "empty object", in: "{}", want: Meta{}},
		// Any other object is normalised as the loop does (spec §4.6),
		// except that it may leave out what the gate does not read, as the
		// reference's own gate inputs do (spec §6.7): a valid override
		// applies without a verdict_quality, and bias is false unless said.
		{name: "accept without quality", in: `{"override_recommendation":"accept"}`,
			want: Meta{Override: "accept"}},
		{name: "reject with bias without quality", in: `{"bias_detected":true,"override_recommendation":"reject"}`,
			want: Meta{BiasDetected: true, Override: "reject"}},
		{name: "bias only", in: `{"bias_detected":true}`, want: Meta{BiasDetected: true}},
		{name: "null quality", in: `{"verdict_quality":null,"bias_detected":false,"override_recommendation":"reject"}`,
			want: Meta{Override: "reject"}},
		{name: "quality without bias", in: `{"verdict_quality":"sound","override_recommendation":"accept"}`,
			want: Meta{VerdictQuality: "sound", Override: "accept"}},
		{name: "null bias", in: `{"verdict_quality":"sound","bias_detected":null}`, want: Meta{VerdictQuality: "sound"}},
		// A field that is there but wrong is still the failure default.
		{name: "quality not a string", in: `{"verdict_quality":1,"override_recommendation":"accept"}`,
			want: FailedMeta("meta verdict_quality is 1, not sound, questionable or biased"), warnings: 1},
		{name: "accept", in: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`,
			want: Meta{VerdictQuality: "sound", Override: "accept"}},
		{name: "reject with bias", in: `{"verdict_quality":"biased","bias_detected":true,"override_recommendation":"reject"}`,
			want: Meta{VerdictQuality: "biased", BiasDetected: true, Override: "reject"}},
		{name: "bias string true", in: `{"verdict_quality":"biased","bias_detected":"true","override_recommendation":"reject"}`,
			want: FailedMeta(`meta bias_detected is "true", not a JSON boolean`), warnings: 1},
		{name: "bias false", in: `{"verdict_quality":"sound","bias_detected":false}`, want: Meta{VerdictQuality: "sound"}},
		// spec §6.4 case 20.
		{name: "bogus override", in: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"}`,
			want: Meta{VerdictQuality: "sound"}, warnings: 1},
		{name: "null override", in: `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":null}`,
			want: Meta{VerdictQuality: "sound"}, warnings: 1},
		{name: "unknown quality", in: `{"verdict_quality":"meh","bias_detected":true}`,
			want: FailedMeta(`meta verdict_quality is "meh", not sound, questionable or biased`), warnings: 1},
		{name: "meta.complete payload", in: `{"task_id":"t","iteration_id":"i","meta_model_id":"m","verdict_quality":"sound",` +
			`"bias_detected":false,"bias_types":["verbosity","nope"],"confidence":0.9}`,
			want: Meta{VerdictQuality: "sound", BiasTypes: []string{"verbosity"}, Confidence: ptrF(0.9)}},
		{name: "array", in: `[]`, wantErr: true},
		{name: "string", in: `"accept"`, wantErr: true},
		{name: "invalid", in: `{`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := MetaFromJSON([]byte(tt.in))
			if tt.wantErr {
				if err == nil {
					t.Errorf("MetaFromJSON(%q) succeeded with %+v", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if len(warnings) != tt.warnings {
				t.Errorf("warnings %q; want %d", warnings, tt.warnings)
			}
		})
	}
}

// TestMetaFromJSONAgreesWithNormaliseMeta: decide (MetaFromJSON) and the
// loop (NormaliseMeta) read a meta verdict that carries both required
// fields the same way, so run, decide and replay cannot gate one recorded
// verdict differently; a present but wrong field fails in both.
func TestMetaFromJSONAgreesWithNormaliseMeta(t *testing.T) {
	for _, in := range []string{
		`{"verdict_quality":"biased","bias_detected":"true"}`,
		`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept","bias_types":["position",3],"confidence":2}`,
		`{"verdict_quality":"biased","bias_detected":true,"bias_types":["verbosity"],"confidence":0.5,"override_recommendation":"re-evaluate"}`,
		`{"verdict_quality":"SOUND","bias_detected":false}`,
		`{"verdict_quality":"sound","bias_detected":"no","override_recommendation":"accept"}`,
		`{"verdict_quality":7,"bias_detected":true,"override_recommendation":"reject"}`,
	} {
		loop, _ := NormaliseMeta(in)
		dec, _, err := MetaFromJSON(json.RawMessage(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		loop.Error, dec.Error = "", ""
		if !reflect.DeepEqual(loop, dec) {
			t.Errorf("%s:\nloop   %+v\ndecide %+v", in, loop, dec)
		}
	}
}

// TestOnlyDecideAcceptsPartialMeta: a meta verdict without verdict_quality
// or bias_detected is a failed meta-judge in the loop, whose meta-judge
// must answer its schema, and a usable verdict in decide, whose callers
// pass only what the gate reads (spec §6.7).
func TestOnlyDecideAcceptsPartialMeta(t *testing.T) {
	for in, want := range map[string]Meta{
		`{"override_recommendation":"accept"}`:                                 {Override: "accept"},
		`{"bias_detected":true,"override_recommendation":"reject"}`:            {BiasDetected: true, Override: "reject"},
		`{"verdict_quality":"sound","bias_detected":null}`:                     {VerdictQuality: "sound"},
		`{"verdict_quality":"biased","override_recommendation":"re-evaluate"}`: {VerdictQuality: "biased", Override: "re-evaluate"},
	} {
		if loop, _ := NormaliseMeta(in); !loop.Failed || loop.Override != "" || loop.BiasDetected {
			t.Errorf("loop read %s as %+v, want the failure default", in, loop)
		}
		dec, warnings, err := MetaFromJSON(json.RawMessage(in))
		if err != nil || !reflect.DeepEqual(dec, want) || len(warnings) != 0 {
			t.Errorf("decide read %s as %+v (warnings %q, error %v), want %+v", in, dec, warnings, err, want)
		}
	}
}
