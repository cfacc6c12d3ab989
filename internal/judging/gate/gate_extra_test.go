package gate

import (
	"encoding/json"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/aggregate"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

const allFailed = "tribunal-gate: every judge failed, so no verdict could approve: "

func failedPanel(labels ...string) []verdict.Verdict {
	out := make([]verdict.Verdict, len(labels))
	for i, l := range labels {
		out[i] = verdict.Failed("judge output is empty")
		out[i].JudgeID = l
	}
	return out
}

func TestEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		in       func(t *testing.T) Input
		reason   rules.Reason
		fc       string
		warnings []string
	}{
		{
			name: "strict with every judge failed",
			in: func(t *testing.T) Input {
				vs := failedPanel("j1", "j2")
				a, _ := aggregate.Score(rules.WeightedMean, vs, rf, 0.6)
				d, _ := aggregate.Disagreement(vs)
				return Input{Policy: rules.Strict, Verdicts: vs, Aggregate: a, Threshold: 0.75, Dissent: d, DissentThreshold: 0.25, Rubric: rf}
			},
			reason:   rules.ReasonLowScore,
			warnings: []string{allFailed + "j1, j2"},
		},
		{
			// With a zero threshold the score arm cannot block; the seats
			// still can.
			name: "every judge failed with threshold 0",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: failedPanel("j1"), Threshold: 0, DissentThreshold: 0.25}
			},
			reason:   rules.ReasonDissentUnresolved,
			warnings: []string{allFailed + "j1"},
		},
		{
			name: "one failed judge keeps its seat",
			in: func(t *testing.T) Input {
				vs := append(jury(t, ".9✓"), failedPanel("j2")...)
				return Input{Policy: rules.Majority, Verdicts: vs, Aggregate: 0.9, Threshold: 0.75, DissentThreshold: 0.25}
			},
			reason: rules.ReasonDissentUnresolved,
		},
		{
			name: "failed judge's criterion scores do not floor",
			in: func(t *testing.T) Input {
				crashed := verdict.Verdict{JudgeID: "j3", Failed: true, HasCriterionScores: true,
					CriterionScores: map[string]json.RawMessage{"correctness": json.RawMessage("0"), "safety": json.RawMessage("0")}}
				vs := append(jury(t, ".9✓{.9,.9}", ".9✓{.9,.9}"), crashed)
				return Input{Policy: rules.Majority, Verdicts: vs, Aggregate: 0.9, Threshold: 0.75, DissentThreshold: 0.25, Rubric: rf}
			},
		},
		{
			name: "empty policy falls back to majority",
			in: func(t *testing.T) Input {
				return Input{Policy: "", Verdicts: jury(t, ".8✓", ".8✓"), Aggregate: 0.8, Threshold: 0.75, DissentThreshold: 0.25}
			},
			warnings: []string{unknownWarning + ", falling back to majority"},
		},
		{
			name: "unknown policy uses majority arithmetic",
			in: func(t *testing.T) Input {
				return Input{Policy: "Strict", Verdicts: jury(t, ".8✓", ".8✓", ".8✗"), Aggregate: 0.8, Threshold: 0.75, DissentThreshold: 0.25}
			},
			warnings: []string{unknownWarning + "Strict, falling back to majority"},
		},
		{
			name: "unknown policy warning not reached on a short-circuit",
			in: func(t *testing.T) Input {
				return Input{Policy: "democracy", Verdicts: jury(t, ".9✓", ".1✗"), Aggregate: 0.5, Threshold: 0.75,
					Dissent: 0.8, DissentThreshold: 0.25}
			},
			reason: rules.ReasonDissentUnresolved,
		},
		{
			name: "floor exactly equal passes",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, ".9✓{.7,.8}"), Aggregate: 0.9, Threshold: 0.75, DissentThreshold: 0.25, Rubric: rf}
			},
		},
		{
			name: "floor has no tolerance",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, ".9✓{.7,.7999999999}"), Aggregate: 0.9, Threshold: 0.75,
					DissentThreshold: 0.25, Rubric: rf}
			},
			reason: rules.ReasonCriterionFloor, fc: "safety",
		},
		{
			name: "no rubric means no floors and no gap warning",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, ".9✓{0,0}"), Aggregate: 0.9, Threshold: 0.75, DissentThreshold: 0.25}
			},
		},
		{
			name: "criteria without name or min_pass are not floors",
			in: func(t *testing.T) Input {
				r := &rubric.Rubric{Criteria: []rubric.Criterion{{Name: "", MinPass: f(0.9)}, {Name: "correctness", Weight: f(1)}}}
				return Input{Policy: rules.Majority, Verdicts: jury(t, `.9✓{"correctness":0,"":0}`), Aggregate: 0.9, Threshold: 0.75,
					DissentThreshold: 0.25, Rubric: r}
			},
		},
		{
			name: "empty criterion_scores objects raise no gap warning",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, `.9✓{}`), Aggregate: 0.9, Threshold: 0.75, DissentThreshold: 0.25, Rubric: rf}
			},
		},
		{
			name: "gap warning names every unscored floor in rubric order",
			in: func(t *testing.T) Input {
				r := &rubric.Rubric{Criteria: []rubric.Criterion{
					{Name: "correctness", MinPass: f(0.7)}, {Name: "style", Weight: f(0.1)},
					{Name: "safety", MinPass: f(0.8)}, {Name: "clarity", MinPass: f(0.5)},
				}}
				return Input{Policy: rules.Majority, Verdicts: jury(t, `.9✓{"correctness":0.9}`), Aggregate: 0.9, Threshold: 0.75,
					DissentThreshold: 0.25, Rubric: r}
			},
			warnings: []string{gapWarning + "safety, clarity"},
		},
		{
			name: "gap warning comes after the policy warning and still blocks",
			in: func(t *testing.T) Input {
				return Input{Policy: "x", Verdicts: jury(t, `.5✓{"correctness":0.2}`), Aggregate: 0.5, Threshold: 0.75,
					DissentThreshold: 0.25, Rubric: rf}
			},
			reason: rules.ReasonLowScore, fc: "correctness",
			warnings: []string{unknownWarning + "x, falling back to majority", gapWarning + "safety"},
		},
		{
			name: "accept with no usable verdict does not suppress dissent",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, "95✓", "—✓"), Aggregate: 0.9, Threshold: 0.75,
					Meta: verdict.Meta{Override: verdict.OverrideAccept}, Dissent: 0.5, DissentThreshold: 0.25}
			},
			reason: rules.ReasonDissentUnresolved,
		},
		{
			name: "unnormalised override is ignored",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.MetaOverride, Verdicts: jury(t, ".9✗", ".9✗"), Aggregate: 0.9, Threshold: 0.75,
					Meta: verdict.Meta{Override: "ACCEPT"}, DissentThreshold: 0.25}
			},
			reason: rules.ReasonDissentUnresolved,
		},
		{
			name: "re-evaluate does not suppress dissent",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.MetaOverride, Verdicts: jury(t, ".9✓", ".6✓"), Aggregate: 0.75, Threshold: 0.75,
					Meta: verdict.Meta{Override: verdict.OverrideReEvaluate}, Dissent: 0.3, DissentThreshold: 0.25}
			},
			reason: rules.ReasonDissentUnresolved,
		},
		{
			name: "bias with reject blocks under strict before the vote",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Strict, Verdicts: jury(t, ".9✓", ".9✓"), Aggregate: 0.9, Threshold: 0.75,
					Meta: verdict.Meta{BiasDetected: true, Override: verdict.OverrideReject}, DissentThreshold: 0.25}
			},
			reason: rules.ReasonBiasDetected,
		},
		{
			name: "meta accept passes with a failing jury under meta_override",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.MetaOverride, Verdicts: append(jury(t, ".2✗"), failedPanel("j2")...), Aggregate: 0.2,
					Threshold: 0.75, Meta: verdict.Meta{Override: verdict.OverrideAccept}, Dissent: 0.9, DissentThreshold: 0.25}
			},
		},
		{
			name: "score within tolerance below threshold passes",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, ".75✓"), Aggregate: 0.75 - 5e-10, Threshold: 0.75, DissentThreshold: 0.25}
			},
		},
		{
			name: "score beyond tolerance blocks",
			in: func(t *testing.T) Input {
				return Input{Policy: rules.Majority, Verdicts: jury(t, ".75✓"), Aggregate: 0.75 - 2e-9, Threshold: 0.75, DissentThreshold: 0.25}
			},
			reason: rules.ReasonLowScore,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, Decide(tt.in(t)), tt.reason, tt.fc, tt.warnings)
		})
	}
}

func TestTolerance(t *testing.T) {
	tests := []struct {
		x, y          float64
		exceeds, pass bool
	}{
		{0.25, 0.25, false, true},
		{0.25 + 5e-10, 0.25, false, true},
		{0.25 + 2e-9, 0.25, true, true},
		{0.25 - 5e-10, 0.25, false, true},
		{0.25 - 2e-9, 0.25, false, false},
		{1, 0, true, true},
		{0, 1, false, false},
	}
	for _, tt := range tests {
		if got := DissentExceeds(tt.x, tt.y); got != tt.exceeds {
			t.Errorf("DissentExceeds(%v, %v) = %v", tt.x, tt.y, got)
		}
		if got := ConsensusPassed(tt.x, tt.y); got != tt.pass {
			t.Errorf("ConsensusPassed(%v, %v) = %v", tt.x, tt.y, got)
		}
	}
}

func TestResultJSON(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Passed: true, Warnings: []string{"w"}}, `{"passed":true}`},
		{Result{Reason: rules.ReasonLowScore}, `{"passed":false,"reason":"low_score"}`},
		{Result{Reason: rules.ReasonCriterionFloor, FailedCriterion: "safety"}, `{"passed":false,"reason":"criterion_floor","failed_criterion":"safety"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.r)
		if err != nil || string(b) != tt.want {
			t.Errorf("got %s, %v; want %s", b, err, tt.want)
		}
	}
}
