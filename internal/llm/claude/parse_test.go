package claude

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// TestParseSamples reads the real CLI outputs (Claude Code 2.1.332) kept in
// testdata/samples.
func TestParseSamples(t *testing.T) {
	tests := []struct {
		file string
		want Result
	}{
		{"result-text.json", Result{
			Envelope: true, Text: "CANNED-REPLY-42", Subtype: "success", TerminalReason: "completed",
			CostUSD: ptr(0.00014000000000000001), Tokens: ptr(15), InputTokens: ptr(10), OutputTokens: ptr(5), NumTurns: 1,
		}},
		{"result-json-schema.json", Result{
			Envelope: true, Text: `{"verdict":"pass","reason":"looks fine"}`,
			Structured: json.RawMessage("{\n    \"verdict\": \"pass\",\n    \"reason\": \"looks fine\"\n  }"),
			Subtype:    "success", TerminalReason: "completed",
			CostUSD: ptr(0.00014000000000000001), Tokens: ptr(15), InputTokens: ptr(10), OutputTokens: ptr(5), NumTurns: 2,
		}},
		{"result-api-error-500.json", Result{
			Envelope: true, IsError: true, Subtype: "success", TerminalReason: "api_error",
			Text:    "API Error: 500 fake error. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:18080).",
			CostUSD: ptr(0.0), Tokens: ptr(0), InputTokens: ptr(0), OutputTokens: ptr(0), NumTurns: 1,
		}},
		{"result-max-turns.json", Result{
			Envelope: true, IsError: true, Subtype: "error_max_turns", TerminalReason: "max_turns",
			CostUSD: ptr(0.00028000000000000003), Tokens: ptr(30), InputTokens: ptr(20), OutputTokens: ptr(10), NumTurns: 3,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "samples", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var got Result
			if err := Parse(data, &got); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%s)\n got %s\nwant %s", tt.file, show(got), show(tt.want))
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Result
		err  error
	}{
		{"empty", "", Result{}, ErrNoOutput},
		{"whitespace", " \n\t", Result{}, ErrNoOutput},
		{"plain text", "  hello\n", Result{Text: "hello"}, nil},
		{"JSON that is not a result", `{"score":0.9}`, Result{Text: `{"score":0.9}`}, nil},
		{"invalid JSON", `{"type":"result"`, Result{Text: `{"type":"result"`}, nil},
		{"bare result type", `{"type":"result"}`, Result{Envelope: true}, nil},
		{"structured null is absent", `{"type":"result","structured_output":null}`, Result{Envelope: true}, nil},
		{"structured string is absent", `{"type":"result","structured_output":"x"}`, Result{Envelope: true}, nil},
		{"structured array kept", `{"type":"result","structured_output":[1]}`, Result{Envelope: true, Structured: json.RawMessage(`[1]`)}, nil},
		{"result not a string", `{"type":"result","result":{"a":1}}`, Result{Envelope: true}, nil},
		{"is_error must be true", `{"type":"result","is_error":"true"}`, Result{Envelope: true}, nil},
		{"negative cost dropped", `{"type":"result","total_cost_usd":-1}`, Result{Envelope: true}, nil},
		{"string cost dropped", `{"type":"result","total_cost_usd":"0.1"}`, Result{Envelope: true}, nil},
		{"overflowing cost dropped", `{"type":"result","total_cost_usd":1e400}`, Result{Envelope: true}, nil},
		{"zero cost kept", `{"type":"result","total_cost_usd":0}`, Result{Envelope: true, CostUSD: ptr(0.0)}, nil},
		{"negative turns are zero", `{"type":"result","num_turns":-3}`, Result{Envelope: true}, nil},
		{"tokens summed over four counters", `{"type":"result","usage":{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":4,"cache_read_input_tokens":8}}`,
			Result{Envelope: true, Tokens: ptr(15), InputTokens: ptr(13), OutputTokens: ptr(2)}, nil},
		{"cache counters alone are no usage", `{"type":"result","usage":{"cache_read_input_tokens":8}}`, Result{Envelope: true}, nil},
		{"negative and mistyped counters ignored", `{"type":"result","usage":{"input_tokens":-5,"output_tokens":"7"}}`,
			Result{Envelope: true, Tokens: ptr(0), InputTokens: ptr(0), OutputTokens: ptr(0)}, nil},
		{"huge counters saturate", `{"type":"result","usage":{"input_tokens":1e30,"output_tokens":9223372036854775807,"cache_read_input_tokens":5}}`,
			Result{Envelope: true, Tokens: ptr(math.MaxInt), InputTokens: ptr(math.MaxInt), OutputTokens: ptr(math.MaxInt)}, nil},
		{"fenced envelope is text", "```json\n{\"type\":\"result\"}\n```", Result{Text: "```json\n{\"type\":\"result\"}\n```"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Result
			err := Parse([]byte(tt.in), &got)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error = %v, want %v", err, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.in, show(got), show(tt.want))
			}
		})
	}
}

func show(r Result) string {
	b, _ := json.Marshal(struct {
		Result
		Structured string
	}{r, string(r.Structured)})
	return string(b)
}
