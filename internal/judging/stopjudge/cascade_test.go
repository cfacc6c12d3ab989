package stopjudge

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
)

// scripted answers each model with its verdict and cost, and counts calls.
type scripted struct {
	verdicts map[string]string
	costs    map[string]float64
	fail     map[string]bool
	calls    []string
}

func (s *scripted) Run(_ context.Context, c claude.Call) (claude.Result, error) {
	s.calls = append(s.calls, c.Model)
	cost := s.costs[c.Model]
	if s.fail[c.Model] {
		return claude.Result{CostUSD: &cost}, errors.New("model overloaded")
	}
	return claude.Result{Structured: []byte(s.verdicts[c.Model]), CostUSD: &cost}, nil
}

func verdictJSON(score float64, passed bool, confidence float64) string {
	return fmt.Sprintf(`{"score":%g,"passed":%v,"judge_type":"standard","feedback_summary":"f","confidence":%g}`, score, passed, confidence)
}

// TestCascade: the cheap model alone when it passes confidently; the
// stronger one too when the cheap verdict fails or is unsure (confidence
// below escalate_below), whose verdict then stands; the cheap verdict
// stands when the stronger call fails; costs are the calls' sum.
func TestCascade(t *testing.T) {
	base := config.StopHookSettings{Model: "cheap", EscalateModel: "strong", EscalateBelow: 0.7, ScoreThreshold: 0.75, Timeout: time.Minute}
	cases := []struct {
		name       string
		settings   func(config.StopHookSettings) config.StopHookSettings
		cheap      string
		strongFail bool
		calls      int
		score      float64
		why        string
		cost       float64
	}{
		{"confident pass: cheap only", nil, verdictJSON(0.9, true, 0.9), false, 1, 0.9, "", 0.001},
		{"fail: escalated", nil, verdictJSON(0.4, false, 0.9), false, 2, 0.8, escalateFailed, 0.011},
		{"unsure pass: escalated", nil, verdictJSON(0.8, true, 0.5), false, 2, 0.8, escalateUnsure, 0.011},
		{"confidence at the bound: not unsure", nil, verdictJSON(0.8, true, 0.7), false, 1, 0.8, "", 0.001},
		{"stronger call fails: cheap verdict stands", nil, verdictJSON(0.4, false, 0.9), true, 2, 0.4, escalateFailed, 0.011},
		{"no escalate_model: no cascade", func(s config.StopHookSettings) config.StopHookSettings { s.EscalateModel = ""; return s }, verdictJSON(0.4, false, 0.9), false, 1, 0.4, "", 0.001},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			if tc.settings != nil {
				s = tc.settings(s)
			}
			run := &scripted{verdicts: map[string]string{"cheap": tc.cheap, "strong": verdictJSON(0.8, true, 0.95)},
				costs: map[string]float64{"cheap": 0.001, "strong": 0.01}, fail: map[string]bool{"strong": tc.strongFail}}
			adv, res, err := Cascade(context.Background(), run, s, prompts.StopInput{}, t.TempDir(), time.Minute, func() time.Duration { return time.Minute })
			if err != nil {
				t.Fatal(err)
			}
			if len(run.calls) != tc.calls || adv.Score != tc.score || res.CostUSD == nil || fmt.Sprintf("%.3f", *res.CostUSD) != fmt.Sprintf("%.3f", tc.cost) {
				t.Fatalf("calls %v, score %v, cost %v", run.calls, adv.Score, *res.CostUSD)
			}
			c := adv.Cascade
			if s.EscalateModel == "" {
				if c != nil {
					t.Fatalf("cascade recorded without one: %+v", c)
				}
				return
			}
			if c == nil || c.Why != tc.why || c.Escalated != (tc.why != "") || c.CheapModel != "cheap" || (tc.strongFail != (c.StrongError != "")) {
				t.Fatalf("cascade %+v", c)
			}
			if tc.why != "" && !tc.strongFail && adv.Model != "strong" {
				t.Fatalf("the verdict's model is %q", adv.Model)
			}
		})
	}
}

// TestCascadeSaves is the scripted run of the report: ten turns of which
// seven pass the cheap judge confidently, two fail and one is unsure,
// with the cheap model at a tenth of the stronger one's cost.
func TestCascadeSaves(t *testing.T) {
	s := config.StopHookSettings{Model: "cheap", EscalateModel: "strong", EscalateBelow: 0.7, ScoreThreshold: 0.75, Timeout: time.Minute}
	turns := []string{}
	for range 7 {
		turns = append(turns, verdictJSON(0.9, true, 0.9))
	}
	turns = append(turns, verdictJSON(0.3, false, 0.9), verdictJSON(0.5, false, 0.8), verdictJSON(0.8, true, 0.4))
	var cascade, strongOnly float64
	for _, v := range turns {
		run := &scripted{verdicts: map[string]string{"cheap": v, "strong": verdictJSON(0.8, true, 0.95)}, costs: map[string]float64{"cheap": 0.002, "strong": 0.02}}
		_, res, err := Cascade(context.Background(), run, s, prompts.StopInput{}, t.TempDir(), time.Minute, func() time.Duration { return time.Minute })
		if err != nil {
			t.Fatal(err)
		}
		cascade += *res.CostUSD
		strongOnly += 0.02
	}
	// 10 cheap calls and 3 strong ones: $0.080 against $0.200.
	if fmt.Sprintf("%.3f %.3f", cascade, strongOnly) != "0.080 0.200" {
		t.Fatalf("cascade $%.3f, the stronger model alone $%.3f", cascade, strongOnly)
	}
	t.Logf("cascade $%.3f, the stronger model alone $%.3f: %.0f%% saved", cascade, strongOnly, 100*(1-cascade/strongOnly))
}
