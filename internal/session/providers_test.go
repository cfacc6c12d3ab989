package session

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/judging"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

const openaiVerdict = `{"score":0.8,"passed":true,"confidence":0.7,"feedback_summary":"fine (OPENAI-SEAT)","criterion_scores":{"correctness":0.8,"completeness":0.8,"safety":0.9,"clarity":0.8}}`

// claudeFake answers the actor, the meta-judge and claude seats.
func claudeFake(t *testing.T, judgeCalls *atomic.Int32) claude.Runner {
	return claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		switch c.Role {
		case "actor":
			return claude.Result{Envelope: true, Text: "done"}, nil
		case "meta":
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		judgeCalls.Add(1)
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"confidence":0.8,"feedback_summary":"ok","criterion_scores":{"correctness":0.9}}`)}, nil
	})
}

func runWith(t *testing.T, userSettings string, vars map[string]string, runner claude.Runner) (*Report, string, error) {
	t.Helper()
	repo := newRepo(t, "")
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(userSettings), 0o644)
	onlooker := filepath.Join(home, "onlooker")
	vars["ONLOOKER_DIR"] = onlooker
	rep, err := Run(context.Background(), Options{Task: "t", Dir: repo}, Deps{
		Env: env.Env{
			Getenv: func(k string) string { return vars[k] },
			Home:   home,
			Claude: runner,
			Git:    projectkey.ExecGit("git", os.Environ()),
		},
	})
	return rep, onlooker, err
}

// TestMixedPanel seats the security judge on an OpenAI-compatible endpoint
// beside a claude standard judge: both verdicts reach the gate, each
// records its provider and family, and the events stay schema-valid with
// the family carried in the model ids.
func TestMixedPanel(t *testing.T) {
	api := fakellm.Start(t)
	api.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(openaiVerdict)})
	settings := `{"tribunal":{"session":{"judge_types":["standard","security"],"max_iterations":1},
		"judges":{"security":{"provider":"openai","model":"qwen3:8b","base_url":"` + api.URL + `/v1","api_key_env":"LOCAL_KEY"}}}}`
	var claudeJudges atomic.Int32
	rep, onlooker, err := runWith(t, settings, map[string]string{"LOCAL_KEY": "dummy"}, claudeFake(t, &claudeJudges))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != Accepted || claudeJudges.Load() != 1 || len(api.Requests()) != 1 {
		t.Fatalf("outcome %s, claude judge calls %d, endpoint calls %d", rep.Outcome, claudeJudges.Load(), len(api.Requests()))
	}
	byType := map[string]judging.JudgeReport{}
	for _, j := range rep.Iterations[0].Judges {
		byType[j.Type] = j
	}
	if s := byType["security"]; s.Provider != "openai" || s.Family != "qwen" || s.Model != "qwen/qwen3:8b" || s.Score == nil || *s.Score != 0.8 {
		t.Errorf("security seat = %+v", s)
	}
	if s := byType["standard"]; s.Provider != "claude" || s.Family != "claude" {
		t.Errorf("standard seat = %+v", s)
	}
	if strings.Join(rep.Families, ",") != "claude,qwen" || rep.FamilyNote != "" {
		t.Errorf("families %v note %q", rep.Families, rep.FamilyNote)
	}
	if sum := Summary(rep); !strings.Contains(sum, "Judge families: claude, qwen\n") {
		t.Errorf("summary lacks the families:\n%s", sum)
	}
	logPath := filepath.Join(onlooker, "logs", "onlooker-events.jsonl")
	if n, err := schemacheck.ValidateLog(logPath); err != nil || n == 0 {
		t.Fatalf("events: %d valid, %v", n, err)
	}
	data, _ := os.ReadFile(logPath)
	if !strings.Contains(string(data), `"judge_model_ids":["claude-opus-4-7","qwen/qwen3:8b"]`) {
		t.Errorf("session.start does not carry the families in the model ids:\n%s", data)
	}
}

func TestOneFamilyNote(t *testing.T) {
	var n atomic.Int32
	rep, _, err := runWith(t, `{"tribunal":{"session":{"max_iterations":1}}}`, map[string]string{}, claudeFake(t, &n))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Families, ",") != "claude" || rep.FamilyNote == "" {
		t.Fatalf("families %v note %q", rep.Families, rep.FamilyNote)
	}
	sum := Summary(rep)
	if strings.Count(sum, "Judge families: claude — every judge is a claude model") != 1 {
		t.Errorf("summary:\n%s", sum)
	}
}

// TestProviderFailureIsJudgeFailure: an endpoint error fails the seat,
// which keeps its place and cannot vote pass.
func TestProviderFailureIsJudgeFailure(t *testing.T) {
	api := fakellm.Start(t)
	api.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Fail(http.StatusUnauthorized, "invalid key")})
	settings := `{"tribunal":{"session":{"judge_types":["standard","security"],"max_iterations":1,"gate_policy":"unanimous"},
		"judges":{"security":{"provider":"openai","model":"gpt-5-mini","base_url":"` + api.URL + `/v1"}}}}`
	var n atomic.Int32
	rep, _, err := runWith(t, settings, map[string]string{}, claudeFake(t, &n))
	if err != nil {
		t.Fatal(err)
	}
	var sec judging.JudgeReport
	for _, j := range rep.Iterations[0].Judges {
		if j.Type == "security" {
			sec = j
		}
	}
	if !sec.Failed || sec.Passed || !strings.Contains(sec.Error, "HTTP 401: invalid key") || rep.Iterations[0].Gate.Passed {
		t.Fatalf("security %+v gate %+v", sec, rep.Iterations[0].Gate)
	}
}

func TestProviderConfigErrors(t *testing.T) {
	tests := []struct {
		name, judges, want string
	}{
		{"unknown", `{"security":{"provider":"llamafile"}}`, `tribunal.judges.security.provider: unknown provider "llamafile"`},
		{"no model", `{"security":{"provider":"openai","base_url":"http://x/v1"}}`, "tribunal.judges.security.model"},
		{"no base url", `{"security":{"provider":"openai","model":"m"}}`, "tribunal.judges.security.base_url"},
		{"unset key", `{"security":{"provider":"openai","model":"m","base_url":"http://x/v1","api_key_env":"NOT_SET_ANYWHERE"}}`, "NOT_SET_ANYWHERE is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := `{"tribunal":{"session":{"judge_types":["standard","security"]},"judges":` + tt.judges + `}}`
			var calls atomic.Int32
			runner := claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
				calls.Add(1)
				return claude.Result{}, errors.New("no call expected")
			})
			_, _, err := runWith(t, settings, map[string]string{}, runner)
			var ce *judging.ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || calls.Load() != 0 {
				t.Fatalf("err = %v (calls %d), want a configuration error containing %q", err, calls.Load(), tt.want)
			}
		})
	}
	t.Run("meta", func(t *testing.T) {
		_, _, err := runWith(t, `{"tribunal":{"meta_judge":{"provider":"openai"}}}`, map[string]string{}, claudeFake(t, new(atomic.Int32)))
		var ce *judging.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "tribunal.meta_judge.model") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestMetaOnOtherProvider: the meta-judge's review comes from an
// OpenAI-compatible endpoint and is what the gate reads.
func TestMetaOnOtherProvider(t *testing.T) {
	api := fakellm.Start(t)
	api.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(`{"verdict_quality":"biased","bias_detected":true,"bias_types":["length"],"override_recommendation":"reject"}`)})
	settings := `{"tribunal":{"session":{"max_iterations":1,"gate_policy":"meta_override"},
		"meta_judge":{"provider":"openai","model":"llama3.3:70b","base_url":"` + api.URL + `/v1"}}}`
	var n atomic.Int32
	rep, onlooker, err := runWith(t, settings, map[string]string{}, claudeFake(t, &n))
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Iterations[0].Meta
	if m.Failed || m.Quality != "biased" || m.Override != "reject" || rep.Iterations[0].Gate.Passed || m.Provider != "openai" || m.Family != "llama" {
		t.Fatalf("meta %+v gate %+v", m, rep.Iterations[0].Gate)
	}
	reqs := api.RequestsTo(fakellm.Chat)
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "Tribunal Meta-Judge") {
		t.Fatalf("meta requests: %d", len(reqs))
	}
	data, _ := os.ReadFile(filepath.Join(onlooker, "logs", "onlooker-events.jsonl"))
	if !strings.Contains(string(data), `"meta_model_id":"llama/llama3.3:70b"`) {
		t.Errorf("meta model id not recorded with its family")
	}
}
