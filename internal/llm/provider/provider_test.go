package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

func TestValidate(t *testing.T) {
	env := map[string]string{"OPENAI_KEY": "sk-test"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name string
		spec Spec
		want string // substring of the error; "" for none
	}{
		{"claude default", Spec{}, ""},
		{"claude explicit", Spec{Provider: "claude"}, ""},
		{"unknown", Spec{Provider: "mistral", Key: "tribunal.judges.security"}, `tribunal.judges.security.provider: unknown provider "mistral"`},
		{"openai ok", Spec{Provider: "openai", Model: "qwen2.5", BaseURL: "http://localhost:11434/v1"}, ""},
		{"openai keyed", Spec{Provider: "openai", Model: "gpt-5-mini", BaseURL: "https://api.example/v1", APIKeyEnv: "OPENAI_KEY"}, ""},
		{"openai no model", Spec{Provider: "openai", BaseURL: "http://x/v1", Key: "tribunal.judges.standard"}, "tribunal.judges.standard.model"},
		{"openai no base", Spec{Provider: "openai", Model: "m", Key: "tribunal.meta_judge"}, "tribunal.meta_judge.base_url"},
		{"bad scheme", Spec{Provider: "openai", Model: "m", BaseURL: "ftp://x"}, "not an http(s) URL"},
		{"unset key", Spec{Provider: "openai", Model: "m", BaseURL: "http://x", APIKeyEnv: "MISSING_KEY", Key: "k"}, "k.api_key_env: the environment variable MISSING_KEY is not set"},
		{"literal key", Spec{Provider: "openai", Model: "m", BaseURL: "http://x", APIKeyEnv: "sk-abc123", Key: "k"}, "k.api_key_env: must be the name of an environment variable"},
		{"codex no model", Spec{Provider: "codex"}, ""},
		{"gemini unset key", Spec{Provider: "gemini", APIKeyEnv: "NOPE", Key: "k"}, "NOPE is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.spec.Validate(getenv)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestFamilies(t *testing.T) {
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{}, "claude"},
		{Spec{Provider: "codex", Model: "o3"}, "gpt"},
		{Spec{Provider: "gemini"}, "gemini"},
		{Spec{Provider: "openai", Model: "gpt-4o-mini"}, "gpt"},
		{Spec{Provider: "openai", Model: "openai/gpt-4o-mini"}, "gpt"},
		{Spec{Provider: "openai", Model: "qwen2.5-coder:7b"}, "qwen"},
		{Spec{Provider: "openai", Model: "llama3.1:8b"}, "llama"},
		{Spec{Provider: "openai", Model: "anthropic/claude-sonnet-4"}, "claude"},
		{Spec{Provider: "openai", Model: "gemma3:4b"}, "gemini"},
		{Spec{Provider: "openai", Model: "Mixtral-8x7B"}, "mistral"},
		{Spec{Provider: "openai", Model: "acme-large-2"}, "acme"},
		{Spec{Provider: "openai", Model: "qwen3", Family: "Alibaba"}, "alibaba"},
	}
	for _, tt := range tests {
		if got := tt.spec.FamilyName(); got != tt.want {
			t.Errorf("%+v: family %q, want %q", tt.spec, got, tt.want)
		}
	}
	fams := Families([]Spec{{}, {Provider: "openai", Model: "qwen3"}, {Provider: "claude"}})
	if strings.Join(fams, ",") != "claude,qwen" {
		t.Errorf("Families = %v", fams)
	}
	if OneFamilyNote([]string{"claude"}) == "" || OneFamilyNote(fams) != "" {
		t.Error("the one-family note must be given for one family only")
	}
	if !strings.Contains(OneFamilyNote([]string{"claude"}), "judges.<type>.provider") {
		t.Error("the note must point at the setting")
	}
}

func TestQualifiedModelAndInfo(t *testing.T) {
	if got := (Spec{}).QualifiedModel("claude-opus-4-7"); got != "claude-opus-4-7" {
		t.Errorf("claude model = %q", got)
	}
	if got := (Spec{Provider: "openai", Model: "qwen3"}).QualifiedModel("ignored"); got != "qwen/qwen3" {
		t.Errorf("openai model = %q", got)
	}
	if got := (Spec{Provider: "codex"}).QualifiedModel(""); got != "gpt/codex-default" {
		t.Errorf("codex default model = %q", got)
	}
	info := (Spec{Provider: "gemini", Model: "gemini-2.5-pro"}).Info("claude-opus-4-7")
	if info != (records.JudgeInfo{Provider: "gemini", Model: "gemini-2.5-pro", Family: "gemini"}) {
		t.Errorf("info = %+v", info)
	}
}

func TestNotInstalledHint(t *testing.T) {
	d := Deps{Getenv: func(k string) string {
		if k == "PATH" {
			return t.TempDir()
		}
		return ""
	}}
	for program, pkg := range map[string]string{Codex: "@openai/codex", Gemini: "@google/gemini-cli"} {
		_, err := d.locate(program, "")
		var ni *NotInstalledError
		if !errors.As(err, &ni) || !strings.Contains(err.Error(), "npm install -g "+pkg) {
			t.Errorf("%s: error %v lacks the npm hint", program, err)
		}
	}
}

func TestConform(t *testing.T) {
	schema := `{"type":"object","properties":{"score":{"type":"number","minimum":0,"maximum":1},"passed":{"type":"boolean"},` +
		`"severity":{"type":"string","enum":["low","high"]},"tags":{"type":"array","items":{"type":"string"}},` +
		`"criterion_scores":{"type":"object","properties":{"a":{"type":"number","minimum":0,"maximum":1}},"additionalProperties":false}},` +
		`"required":["score","passed"],"additionalProperties":false}`
	tests := []struct {
		name, text, want string // want: error substring, "" for success
	}{
		{"plain", `{"score":0.8,"passed":true}`, ""},
		{"fenced", "```json\n{\"score\":0.8,\"passed\":true,\"tags\":[\"x\"]}\n```", ""},
		{"nested ok", `{"score":1,"passed":false,"criterion_scores":{"a":0.5},"severity":"high"}`, ""},
		{"prose", `Here is my verdict: {"score":0.8,"passed":true}`, "not a JSON object"},
		{"array", `[1]`, "not a JSON object"},
		{"missing", `{"passed":true}`, `lacks the required key "score"`},
		{"defaulted missing", `{"score":0.8}`, ""},
		{"range", `{"score":1.5,"passed":true}`, "above the maximum"},
		{"negative", `{"score":-0.1,"passed":true}`, "below the minimum"},
		{"type", `{"score":"0.8","passed":true}`, "must be a number"},
		{"extra dropped", `{"score":0.8,"passed":true,"judge_id":"x"}`, ""},
		{"nested extra", `{"score":0.8,"passed":true,"criterion_scores":{"b":1}}`, `unknown key "b"`},
		{"enum", `{"score":0.8,"passed":true,"severity":"medium"}`, "not one of the allowed values"},
		{"items", `{"score":0.8,"passed":true,"tags":[1]}`, "$.tags[0] must be a string"},
		{"enum object", `{"score":0.8,"passed":true,"severity":{"a":1}}`, "not one of the allowed values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := Conform(tt.text, schema)
			if tt.want == "" {
				if err != nil || len(raw) == 0 {
					t.Fatalf("Conform = %s, %v", raw, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestConformToleratesWhatTheReadersDefault: the Stop judge over an
// OpenAI-compatible endpoint lost a verdict with an extra key or without
// confidence, which the loop judge and spec §8.5 accept (issue 18 item 7).
func TestConformToleratesWhatTheReadersDefault(t *testing.T) {
	stop := `{"score":0.4,"passed":false,"judge_type":"standard","feedback_summary":"No test.","criteria_evaluated":["edge-cases"]}`
	raw, err := Conform(stop, prompts.StopVerdictSchema())
	if err != nil || strings.Contains(string(raw), "criteria_evaluated") {
		t.Fatalf("Stop answer with an extra key and no confidence: %s, %v", raw, err)
	}
	raw, err = Conform(`{"score":0.9,"passed":null,"judge_type":"standard","confidence":null}`, prompts.StopVerdictSchema())
	if err != nil || string(raw) != `{"judge_type":"standard","score":0.9}` {
		t.Fatalf("null defaulted keys: %s, %v", raw, err)
	}
	loop := `{"score":0.8,"passed":true,"criterion_scores":{"correctness":0.8},"criteria_evaluated":["x"],"judge_id":"forged"}`
	raw, err = Conform(loop, prompts.VerdictSchema([]string{"correctness"}))
	if err != nil || !strings.Contains(string(raw), "criteria_evaluated") || strings.Contains(string(raw), "forged") {
		t.Fatalf("loop answer without confidence and feedback: %s, %v", raw, err)
	}
	for _, bad := range []struct{ text, want string }{
		{`{"passed":true,"judge_type":"standard"}`, `lacks the required key "score"`},
		{`{"score":0.5,"passed":true}`, `lacks the required key "judge_type"`},
		{`{"score":0.5,"judge_type":"standard","confidence":"high"}`, "$.confidence must be a number"},
		{`{"score":0.5,"judge_type":"standard","passed":"yes"}`, "$.passed must be a boolean"},
	} {
		if _, err := Conform(bad.text, prompts.StopVerdictSchema()); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err %v, want %q", bad.text, err, bad.want)
		}
	}
}

func TestIsEnvName(t *testing.T) {
	for s, want := range map[string]bool{"OPENAI_API_KEY": true, "_k1": true, "a": true, "": false, "1KEY": false,
		"sk-abc": false, "KEY NAME": false, "ключ": false, "K=V": false} {
		if got := isEnvName(s); got != want {
			t.Errorf("isEnvName(%q) = %v", s, got)
		}
	}
}

// TestHeuristicSeat: the heuristic provider needs no key, model or
// endpoint, records its rule set as the model whatever is configured,
// reports no usage by design (so it is never suspect), is no model family
// to warn about, and refuses a Stop turn.
func TestHeuristicSeat(t *testing.T) {
	s := Spec{Provider: Heuristic, Model: "claude-opus-4-7", Key: "tribunal.judges.standard"}
	if err := s.Validate(func(string) string { return "" }); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if info := s.Info("claude-opus-4-7"); info != (records.JudgeInfo{Provider: "heuristic", Model: HeuristicModel, Family: "heuristic"}) {
		t.Errorf("Info = %+v", info)
	}
	if s.QualifiedModel("claude-opus-4-7") != HeuristicModel || s.ReportsUsage() || !(Spec{}).ReportsUsage() {
		t.Errorf("QualifiedModel %q, ReportsUsage %v", s.QualifiedModel(""), s.ReportsUsage())
	}
	if note := OneFamilyNote([]string{"heuristic"}); note != "" {
		t.Errorf("OneFamilyNote = %q, want none for the heuristic judge", note)
	}
	_, err := Deps{}.Runner(s).Run(context.Background(), claude.Call{})
	if err == nil || !strings.Contains(err.Error(), "not a Stop turn") {
		t.Errorf("Runner outside the jury: %v", err)
	}
}
