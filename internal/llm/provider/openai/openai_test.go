package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
)

const verdictJSON = `{"score":0.82,"passed":true,"confidence":0.7,"feedback_summary":"ok","criterion_scores":{"correctness":0.9}}`

func call() claude.Call {
	return claude.Call{
		Role: "judge", Prompt: "judge this", SystemPrompt: "# Tribunal Standard Judge",
		JSONSchema: prompts.VerdictSchema([]string{"correctness", "clarity"}), Timeout: time.Minute,
	}
}

// sleeps records the waits between attempts instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(done <-chan struct{}, d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return true
}

func newRunner(t *testing.T, srv *fakellm.Server, sl *sleeps) claude.Runner {
	t.Helper()
	env := map[string]string{"TEST_KEY": "sk-secret"}
	opts := Options{Getenv: func(k string) string { return env[k] }}
	if sl != nil {
		opts.Sleep = sl.sleep
	}
	return Runner(opts, provider.Spec{Provider: "openai", Model: "qwen3:8b", BaseURL: srv.URL + "/v1", APIKeyEnv: "TEST_KEY"})
}

func TestStructuredOutput(t *testing.T) {
	srv := fakellm.Start(t)
	cost := 0.0012
	srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Reply{Text: verdictJSON, Usage: 120, Cost: &cost}})
	res, err := newRunner(t, srv, nil).Run(context.Background(), call())
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Structured, &got); err != nil || got["score"] != 0.82 {
		t.Fatalf("structured = %s (%v)", res.Structured, err)
	}
	if res.Tokens == nil || *res.Tokens != 120 || res.CostUSD == nil || *res.CostUSD != cost {
		t.Errorf("usage not recorded: tokens %v cost %v", res.Tokens, res.CostUSD)
	}
	reqs := srv.RequestsTo(fakellm.Chat)
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/chat/completions" || r.Model != "qwen3:8b" || r.Header.Get("Authorization") != "<set>" {
		t.Errorf("request %s model %q auth %q", r.Path, r.Model, r.Header.Get("Authorization"))
	}
	var body struct {
		Messages []struct{ Role, Content string }
		RF       struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.RF.Type != "json_schema" || !strings.Contains(string(body.RF.JSONSchema.Schema), `"correctness"`) {
		t.Errorf("response_format = %+v", body.RF)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || !strings.Contains(body.Messages[0].Content, "JSON Schema") || body.Messages[1].Content != "judge this" {
		t.Errorf("messages = %+v", body.Messages)
	}
}

func TestServerIgnoringResponseFormat(t *testing.T) {
	tests := []struct {
		name, text, wantErr string
	}{
		{"fenced valid", "```json\n" + verdictJSON + "\n```", ""},
		{"prose", "I think it is fine. " + verdictJSON, "not a JSON object"},
		{"out of range", strings.Replace(verdictJSON, "0.82", "7", 1), "above the maximum"},
		{"unknown criterion", strings.Replace(verdictJSON, `"correctness"`, `"speed"`, 1), `unknown key "speed"`},
		{"missing key", `{"score":0.7,"passed":true}`, `lacks the required key "criterion_scores"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakellm.Start(t)
			srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(tt.text)})
			res, err := newRunner(t, srv, nil).Run(context.Background(), call())
			if tt.wantErr == "" {
				if err != nil || res.Structured == nil {
					t.Fatalf("err %v structured %s", err, res.Structured)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestServerRejectingResponseFormat(t *testing.T) {
	srv := fakellm.Start(t)
	srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Reply{Text: verdictJSON, RejectFormat: true}})
	res, err := newRunner(t, srv, nil).Run(context.Background(), call())
	if err != nil || res.Structured == nil {
		t.Fatalf("err %v", err)
	}
	reqs := srv.RequestsTo(fakellm.Chat)
	if len(reqs) != 2 || !reqs[0].HasResponseFormat() || reqs[1].HasResponseFormat() {
		t.Fatalf("want one request with response_format, then one without; got %d", len(reqs))
	}
}

func TestRetries(t *testing.T) {
	t.Run("429 then success", func(t *testing.T) {
		srv := fakellm.Start(t)
		srv.Add(fakellm.Rule{API: fakellm.Chat, Times: 1, Reply: fakellm.Reply{Status: http.StatusTooManyRequests, Error: "slow down", RetryAfter: "3"}},
			fakellm.Rule{API: fakellm.Chat, Times: 1, Reply: fakellm.Fail(http.StatusServiceUnavailable, "overloaded")},
			fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(verdictJSON)})
		var sl sleeps
		res, err := newRunner(t, srv, &sl).Run(context.Background(), call())
		if err != nil {
			t.Fatal(err)
		}
		if res.NumTurns != 3 || len(srv.Requests()) != 3 {
			t.Errorf("attempts = %d, requests = %d; want 3", res.NumTurns, len(srv.Requests()))
		}
		// Retry-After honoured, then exponential backoff.
		if len(sl.d) != 2 || sl.d[0] != 3*time.Second || sl.d[1] != 2*time.Second {
			t.Errorf("waits = %v, want [3s 2s]", sl.d)
		}
	})
	t.Run("5xx until the attempts run out", func(t *testing.T) {
		srv := fakellm.Start(t)
		srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Fail(http.StatusBadGateway, "down")})
		var sl sleeps
		_, err := newRunner(t, srv, &sl).Run(context.Background(), call())
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != 502 || len(srv.Requests()) != maxAttempts {
			t.Fatalf("err %v after %d requests", err, len(srv.Requests()))
		}
	})
	t.Run("4xx is not retried", func(t *testing.T) {
		srv := fakellm.Start(t)
		srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Fail(http.StatusUnauthorized, "bad key")})
		_, err := newRunner(t, srv, &sleeps{}).Run(context.Background(), call())
		if err == nil || !strings.Contains(err.Error(), "HTTP 401: bad key") || len(srv.Requests()) != 1 {
			t.Fatalf("err %v after %d requests", err, len(srv.Requests()))
		}
	})
	t.Run("no wait past the deadline", func(t *testing.T) {
		srv := fakellm.Start(t)
		srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Reply{Status: 429, Error: "later", RetryAfter: "10"}})
		c := call()
		c.Timeout = 2 * time.Second
		var sl sleeps
		_, err := newRunner(t, srv, &sl).Run(context.Background(), c)
		var de *DeadlineError
		if !errors.As(err, &de) || len(sl.d) != 0 || len(srv.Requests()) != 1 {
			t.Fatalf("err %v, waits %v, requests %d", err, sl.d, len(srv.Requests()))
		}
	})
}

func TestDeadlineWhileWaitingForTheServer(t *testing.T) {
	block := make(chan struct{})
	ts := startHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer close(block)
	r := Runner(Options{Getenv: func(string) string { return "" }}, provider.Spec{Provider: "openai", Model: "m", BaseURL: ts + "/v1"})
	c := call()
	c.Timeout = 300 * time.Millisecond
	_, err := r.Run(context.Background(), c)
	var de *DeadlineError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "300ms") {
		t.Fatalf("err = %v", err)
	}
}
