package judging

import (
	"encoding/json"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func skipVerdict(score string, passed bool, conf *float64) verdict.Verdict {
	return verdict.Verdict{Score: json.RawMessage(score), Passed: passed, Confidence: conf}
}

func confidence(f float64) *float64 { return &f }

// TestMetaSkipDetail is spec §4.6 Skipping: only a unanimous, confident
// jury with nothing for a meta-judge to resolve goes without one.
func TestMetaSkipDetail(t *testing.T) {
	on := config.MetaSkip{Enabled: true, MinConfidence: 0.8}
	hi, lo := confidence(0.9), confidence(0.5)
	for _, tc := range []struct {
		name    string
		skip    config.MetaSkip
		policy  rules.Policy
		vs      []verdict.Verdict
		dissent float64
		want    string
	}{
		{"all pass, confident", on, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi), skipVerdict("0.85", true, hi)}, 0.05,
			"all 2 judges pass, each at least 0.80 confident"},
		{"all fail, confident", on, rules.Majority, []verdict.Verdict{skipVerdict("0.3", false, hi), skipVerdict("0.2", false, hi)}, 0.05,
			"all 2 judges fail, each at least 0.80 confident"},
		{"exactly the floor is confident", on, rules.Strict, []verdict.Verdict{skipVerdict("0.9", true, confidence(0.8))}, 0, "all 1 judges pass, each at least 0.80 confident"},
		{"off", config.MetaSkip{MinConfidence: 0.8}, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi)}, 0, ""},
		{"split", on, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi), skipVerdict("0.6", false, hi)}, 0.1, ""},
		{"one unsure", on, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi), skipVerdict("0.9", true, lo)}, 0, ""},
		{"no confidence given", on, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi), skipVerdict("0.9", true, nil)}, 0, ""},
		{"a failed seat", on, rules.Majority, []verdict.Verdict{skipVerdict("0.9", true, hi), {Failed: true, Confidence: hi}}, 0, ""},
		{"dissent to resolve", on, rules.Majority, []verdict.Verdict{skipVerdict("1", true, hi), skipVerdict("0.76", true, hi)}, 0.3, ""},
		{"meta_override's gate is the meta-judge", on, rules.MetaOverride, []verdict.Verdict{skipVerdict("0.9", true, hi)}, 0, ""},
		{"no panel", on, rules.Majority, nil, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MetaSkipDetail(tc.skip, tc.policy, tc.vs, tc.dissent, 0.25); got != tc.want {
				t.Errorf("MetaSkipDetail = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSkippedMetaGates: the gate reads a skipped meta-judge as none — the
// same decision as with no meta verdict, never a "sound" one's.
func TestSkippedMetaGates(t *testing.T) {
	hi := confidence(0.9)
	for _, vs := range [][]verdict.Verdict{
		{skipVerdict("0.9", true, hi), skipVerdict("0.85", true, hi)},
		{skipVerdict("0.3", false, hi), skipVerdict("0.2", false, hi)},
	} {
		in := gate.Input{Policy: rules.Majority, Verdicts: vs, Aggregate: 0.875, Threshold: 0.75, DissentThreshold: 0.25}
		none := gate.Decide(in)
		in.Meta = verdict.SkippedMeta("all 2 judges pass")
		if got := gate.Decide(in); got.Passed != none.Passed || got.Reason != none.Reason {
			t.Errorf("skipped meta gates %+v, no meta %+v", got, none)
		}
	}
	m := verdict.SkippedMeta("x")
	if m.VerdictQuality == verdict.QualitySound || m.BiasDetected || m.Override != "" || m.Failed {
		t.Errorf("a skipped meta reads as a verdict: %+v", m)
	}
	back, warns, err := verdict.MetaFromJSON(json.RawMessage(`{"verdict_quality":"","bias_detected":false,"skipped":true,"skip_reason":"unanimous_confident: x"}`))
	if err != nil || len(warns) > 0 || !back.Skipped || back.SkipDetail != "unanimous_confident: x" {
		t.Errorf("meta.json of a skip replays as %+v, %q, %v", back, warns, err)
	}
}
