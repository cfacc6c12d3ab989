package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// StructuredOutputTool is the tool Claude Code offers for --json-schema; a
// call to it with a schema-valid input is the run's structured_output.
const StructuredOutputTool = "StructuredOutput"

// Reply is one scripted answer to a Messages API call.
type Reply struct {
	// Blocks are the content blocks of a successful answer, streamed in
	// order. An empty answer still streams a well-formed message.
	Blocks []OutBlock
	// StopReason overrides the stop reason; by default it is "tool_use"
	// when a block is a tool_use and "end_turn" otherwise.
	StopReason string
	// Status, when non-zero, answers with this HTTP status and an
	// Anthropic error body instead of a stream.
	Status int
	// ErrorType and ErrorMessage fill the error body ("api_error" and a
	// generic message when empty).
	ErrorType, ErrorMessage string
	// Delay is waited before anything is sent. A client that gives up
	// first (a killed process, an API timeout) ends the wait.
	Delay time.Duration
	// Drop sends message_start and then aborts the connection, as a
	// network failure mid-stream would.
	Drop bool
	// InputTokens and OutputTokens are reported as usage (10 and 5 when
	// zero): Claude Code derives the run's cost from them.
	InputTokens, OutputTokens int
}

// OutBlock is one content block of a reply.
type OutBlock struct {
	Type string // "text" or "tool_use"
	Text string
	// ID is the tool_use id; minted when empty.
	ID    string
	Name  string
	Input json.RawMessage
}

// Text is a reply holding one text block.
func Text(s string) Reply {
	return Reply{Blocks: []OutBlock{TextBlock(s)}}
}

// TextBlock is a text content block.
func TextBlock(s string) OutBlock { return OutBlock{Type: "text", Text: s} }

// ToolUseBlock is a tool_use block calling name with input, which must
// encode to a JSON object.
func ToolUseBlock(name string, input any) OutBlock {
	raw, err := json.Marshal(input)
	if err != nil {
		// Inputs are test literals; an unencodable one is a bug in the test.
		panic(fmt.Sprintf("fakeapi: encode %s input: %v", name, err))
	}
	return OutBlock{Type: "tool_use", Name: name, Input: raw}
}

// ToolUse is a reply that says text (when non-empty) and then calls name
// with input.
func ToolUse(text, name string, input any) Reply {
	var r Reply
	if text != "" {
		r.Blocks = append(r.Blocks, TextBlock(text))
	}
	r.Blocks = append(r.Blocks, ToolUseBlock(name, input))
	return r
}

// Bash is a reply that runs command with Claude Code's Bash tool.
func Bash(command string) Reply {
	return ToolUse("", "Bash", map[string]any{"command": command, "description": "run a command"})
}

// Structured is a reply that calls the StructuredOutput tool with obj: how
// a model answers a --json-schema run.
func Structured(obj any) Reply {
	return ToolUse("", StructuredOutputTool, obj)
}

// Error is a reply with an HTTP error status and the Anthropic error body.
func Error(status int, errType, message string) Reply {
	return Reply{Status: status, ErrorType: errType, ErrorMessage: message}
}

// stopReason is the reply's effective stop reason.
func (r Reply) stopReason() string {
	if r.StopReason != "" {
		return r.StopReason
	}
	for _, b := range r.Blocks {
		if b.Type == "tool_use" {
			return "tool_use"
		}
	}
	return "end_turn"
}

// errorBody renders the Anthropic error JSON.
func (r Reply) errorBody() []byte {
	typ, msg := r.ErrorType, r.ErrorMessage
	if typ == "" {
		typ = "api_error"
	}
	if msg == "" {
		msg = "fake " + http.StatusText(r.Status)
	}
	body, _ := json.Marshal(map[string]any{
		"type":  "error",
		"error": map[string]string{"type": typ, "message": msg},
	})
	return body
}

// sse writes server-sent events, flushing after each so the client sees
// every event as it is produced.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func (s sse) event(name string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", name, err)
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, raw); err != nil {
		return err
	}
	if s.f != nil {
		s.f.Flush()
	}
	return nil
}

// messageStart is the first event of every stream.
func messageStart(id, model string, r Reply) map[string]any {
	return map[string]any{
		"type": "message_start",
		"message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]int{
				"input_tokens": orDefault(r.InputTokens, 10), "output_tokens": 1,
				"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			},
		},
	}
}

// streamBlocks writes the content blocks and the closing events. Tool-use
// ids are prefixed so that they are unique across the whole server.
func streamBlocks(s sse, idPrefix string, r Reply) error {
	for i, b := range r.Blocks {
		var start, delta map[string]any
		switch b.Type {
		case "tool_use":
			id := b.ID
			if id == "" {
				id = fmt.Sprintf("toolu_%s_%d", idPrefix, i)
			}
			input := b.Input
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			start = map[string]any{"type": "tool_use", "id": id, "name": b.Name, "input": map[string]any{}}
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(input)}
		default:
			start = map[string]any{"type": "text", "text": ""}
			delta = map[string]any{"type": "text_delta", "text": b.Text}
		}
		events := []struct {
			name string
			data any
		}{
			{"content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}},
			{"content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": delta}},
			{"content_block_stop", map[string]any{"type": "content_block_stop", "index": i}},
		}
		for _, e := range events {
			if err := s.event(e.name, e.data); err != nil {
				return err
			}
		}
	}
	if err := s.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": r.stopReason(), "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": orDefault(r.OutputTokens, 5)},
	}); err != nil {
		return err
	}
	return s.event("message_stop", map[string]string{"type": "message_stop"})
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}
