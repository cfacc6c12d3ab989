// Package openai is the openai judge provider: an OpenAI-compatible
// chat-completions endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio)
// with the verdict schema as structured output, strict validation, retries
// and usage; kept apart so that only the binaries that call it link
// net/http.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Retry policy of the openai provider: a 429, a 5xx or a broken connection
// is retried with exponential backoff (honouring Retry-After) as long as
// the judge's deadline leaves room for the wait.
const (
	maxAttempts    = 5
	firstBackoff   = time.Second
	maxBackoff     = 16 * time.Second
	maxBodyBytes   = 8 << 20
	errorBodyBytes = 2 << 10
)

// Options are the openai provider's injectable parts.
type Options struct {
	// Getenv reads the API key variable.
	Getenv func(string) string
	// HTTP is the client; nil means http.DefaultClient.
	HTTP *http.Client
	// Sleep waits between retries and reports false when done closed
	// first; nil means a real timer.
	Sleep func(done <-chan struct{}, d time.Duration) bool
}

// openAI calls an OpenAI-compatible chat-completions endpoint.
type openAI struct {
	deps Options
	spec provider.Spec
}

// Runner returns the runner of an openai seat.
func Runner(o Options, s provider.Spec) claude.Runner {
	return &openAI{deps: o, spec: s}
}

// HTTPError is a non-2xx answer from the endpoint.
type HTTPError struct {
	Status  int
	Message string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("the endpoint answered HTTP %d", e.Status)
	if e.Message != "" {
		msg += ": " + safetext.OneLine(e.Message, 200)
	}
	return msg
}

// DeadlineError is an endpoint that did not answer within the judge's
// deadline, retries included.
type DeadlineError struct {
	After time.Duration
	Last  error
}

func (e *DeadlineError) Error() string {
	msg := fmt.Sprintf("no answer within the judge deadline of %s", e.After)
	if e.Last != nil {
		msg += " (last attempt: " + e.Last.Error() + ")"
	}
	return msg
}

func (e *DeadlineError) Unwrap() error { return e.Last }

// Run sends the call as one chat completion and returns the validated JSON
// object as the structured output.
func (o *openAI) Run(ctx context.Context, c claude.Call) (claude.Result, error) {
	start := time.Now()
	res := claude.Result{Envelope: true}
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	var key string
	if o.spec.APIKeyEnv != "" {
		if key = o.deps.Getenv(o.spec.APIKeyEnv); key == "" {
			return res, fmt.Errorf("the API key variable %s is empty", o.spec.APIKeyEnv)
		}
	}
	target, err := requestURL(o.spec.BaseURL)
	if err != nil {
		return res, err
	}
	structured := c.JSONSchema != ""
	var last error
	for attempt := 1; ; attempt++ {
		body, err := json.Marshal(o.request(c, structured))
		if err != nil {
			return res, fmt.Errorf("encode the request: %w", err)
		}
		text, retryAfter, err := o.post(ctx, target, key, body, &res)
		res.NumTurns = attempt
		res.Duration = time.Since(start)
		if err == nil {
			res.Text = text
			obj, cerr := provider.Conform(text, c.JSONSchema)
			if cerr != nil {
				return res, cerr
			}
			res.Structured = obj
			return res, nil
		}
		last = err
		if ctx.Err() != nil {
			return res, o.ctxErr(ctx, c, last)
		}
		var he *HTTPError
		if structured && errors.As(err, &he) && he.Status == http.StatusBadRequest &&
			strings.Contains(strings.ToLower(he.Message), "response_format") {
			// A server that refuses structured output outright: ask again
			// without it; the parse-and-validate step still applies.
			structured = false
			continue
		}
		if !retryable(err) || attempt >= maxAttempts {
			return res, err
		}
		wait := backoff(attempt, retryAfter)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return res, &DeadlineError{After: c.Timeout, Last: last}
		}
		if !o.sleep(ctx, wait) {
			return res, o.ctxErr(ctx, c, last)
		}
	}
}

func (o *openAI) ctxErr(ctx context.Context, c claude.Call, last error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &DeadlineError{After: c.Timeout, Last: last}
	}
	return ctx.Err()
}

func (o *openAI) sleep(ctx context.Context, d time.Duration) bool {
	if o.deps.Sleep != nil {
		return o.deps.Sleep(ctx.Done(), d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// chatRequest is the body of one chat completion. No token cap and no
// temperature are sent: the parameter names and allowed values differ
// between OpenAI's model generations and the local servers, and a judge's
// answer is short.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	Stream         bool            `json:"stream"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type       string     `json:"type"`
	JSONSchema jsonSchema `json:"json_schema"`
}

// jsonSchema is sent with strict false: OpenAI's strict mode demands that
// every property be required, while a verdict may leave a criterion out
// (not assessed). Conform enforces the schema on every answer anyway.
type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

func (o *openAI) request(c claude.Call, structured bool) chatRequest {
	req := chatRequest{Model: o.spec.Model, Messages: []chatMessage{
		{Role: "system", Content: provider.SystemPrompt(c)},
		{Role: "user", Content: c.Prompt},
	}}
	if structured {
		req.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: jsonSchema{
			Name: "verdict", Schema: json.RawMessage(c.JSONSchema),
		}}
	}
	return req
}

// requestURL is the chat-completions URL of a base URL: the path joined
// ("…/v1" and "…/v1/" both give "…/v1/chat/completions"), the base's query
// kept (Azure's "?api-version=…", a key in "?api-key=…"), the fragment
// dropped, the userinfo kept for the client's basic authentication.
func requestURL(base string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return nil, errors.New("the base URL is not an absolute URL")
	}
	u = u.JoinPath("chat", "completions")
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// post makes one attempt. It returns the message text, or an error and the
// server's Retry-After.
func (o *openAI) post(ctx context.Context, target *url.URL, key string, body []byte, res *claude.Result) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		return "", 0, fmt.Errorf("build the request for %s: %w", o.spec.Endpoint(), err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	client := o.deps.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// The client's error quotes the URL, query and all: keep only
		// what went wrong.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", 0, &netError{err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	if err != nil {
		return "", 0, &netError{err: err}
	}
	res.Raw = string(data) // the evidence of what the endpoint answered
	if resp.StatusCode/100 != 2 {
		msg := gjson.GetBytes(data, "error.message").String()
		if msg == "" {
			msg = string(data[:min(len(data), errorBodyBytes)])
		}
		return "", retryAfter(resp.Header.Get("Retry-After")), &HTTPError{Status: resp.StatusCode, Message: msg}
	}
	// gjson validates recursively: the depth check comes first.
	if nesting.JSON(data) != nil || !gjson.ValidBytes(data) {
		return "", 0, errors.New("the endpoint's answer is not JSON")
	}
	f := gjson.GetManyBytes(data, "choices.0.message.content", "choices.0.message.refusal",
		"usage.total_tokens", "usage.prompt_tokens", "usage.completion_tokens", "usage.cost", "error.message")
	provider.RecordUsage(res, f[2], f[3], f[4], f[5])
	switch {
	case f[6].String() != "":
		return "", 0, &HTTPError{Status: resp.StatusCode, Message: f[6].String()}
	case f[1].Type == gjson.String && f[1].String() != "":
		return "", 0, fmt.Errorf("the model refused: %s", safetext.OneLine(f[1].String(), 200))
	case f[0].Type != gjson.String || strings.TrimSpace(f[0].String()) == "":
		return "", 0, errors.New("the endpoint's answer has no message content")
	}
	return f[0].String(), 0, nil
}

// netError is a transport failure (refused, reset, TLS): retryable.
type netError struct{ err error }

func (e *netError) Error() string { return "request failed: " + e.err.Error() }
func (e *netError) Unwrap() error { return e.err }

func retryable(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Status == http.StatusTooManyRequests || he.Status >= 500
	}
	var ne *netError
	return errors.As(err, &ne)
}

// backoff is the wait before attempt n+1: the server's Retry-After when it
// gave one, else 1s, 2s, 4s, … capped.
func backoff(attempt int, after time.Duration) time.Duration {
	if after > 0 {
		return min(after, maxBackoff)
	}
	return min(firstBackoff<<(attempt-1), maxBackoff)
}

// retryAfter reads a Retry-After header in seconds; dates are ignored.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(min(n, 3600)) * time.Second
}
