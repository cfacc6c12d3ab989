package stopjudge

import (
	"context"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/llm/provider/openai"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
)

// TestJudgeOverOpenAIToleratesWhatTheSpecDoes: the Stop judge over an
// OpenAI-compatible endpoint refused an answer with a key it does not read
// (criteria_evaluated) and without confidence, and the verdict was lost,
// though spec §8.5 defaults confidence and the loop judge accepts the same
// answer (issue 18 item 7).
func TestJudgeOverOpenAIToleratesWhatTheSpecDoes(t *testing.T) {
	srv := fakellm.Start(t)
	srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(
		`{"score":0.4,"passed":false,"judge_type":"standard","feedback_summary":"No test.","criteria_evaluated":["edge-cases"]}`)})
	run := openai.Runner(openai.Options{Getenv: func(string) string { return "" }},
		provider.Spec{Provider: provider.OpenAI, Model: "qwen3:8b", BaseURL: srv.URL + "/v1"})
	s := config.StopHookSettings{ScoreThreshold: 0.75, Model: "qwen/qwen3:8b"}
	adv, _, err := Ask(context.Background(), run, s, prompts.StopInput{LastAssistantMessage: "done"}, t.TempDir(), time.Minute)
	if err != nil {
		t.Fatalf("the verdict was lost: %v", err)
	}
	if adv.Score != 0.4 || adv.Passed || adv.Confidence != DefaultConfidence || adv.Feedback != "No test." {
		t.Errorf("advisory = %+v", adv)
	}
}
