package fakeapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Request is one recorded HTTP request, with the parsed Messages API body
// when it was a POST to /v1/messages.
type Request struct {
	// Seq numbers requests from 0 in arrival order.
	Seq    int
	Method string
	Path   string
	Query  string
	// Header holds every request header except the credentials
	// (x-api-key, authorization), which tests never need and must not log.
	Header http.Header
	// Raw is the body exactly as sent.
	Raw []byte
	// Body is the parsed Messages request; nil for other requests or a body
	// that is not JSON.
	Body *Body
	// Rule is the index of the rule that answered, in the order rules were
	// added; -1 when the default reply (or no reply) was used.
	Rule int
	// Start is when the request arrived; End when the reply finished (or
	// the stream was dropped, or the client went away).
	Start, End time.Time
}

// Body is the subset of a Messages API request body that tests assert on.
type Body struct {
	Model     string          `json:"model"`
	System    Content         `json:"system"`
	Messages  []Message       `json:"messages"`
	Tools     []Tool          `json:"tools"`
	MaxTokens int             `json:"max_tokens"`
	Stream    bool            `json:"stream"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// Message is one entry of "messages". Role is "user", "assistant" or, in
// Claude Code 2.1.332, "system".
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Tool is one offered tool.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Block is one content block of a request message (or one block of a
// tool_result's own content).
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   Content         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// Content is message content, which the API accepts either as a plain
// string or as an array of blocks; both decode to blocks (a string becomes
// one text block).
type Content []Block

// UnmarshalJSON accepts a string, an array of blocks or null.
func (c *Content) UnmarshalJSON(data []byte) error {
	trimmed := strings.TrimSpace(string(data))
	if trimmed == "null" {
		*c = nil
		return nil
	}
	if strings.HasPrefix(trimmed, `"`) {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(data, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Text joins the text of every text block, and of the content of every
// tool_result block, with newlines.
func (c Content) Text() string {
	var parts []string
	for _, b := range c {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			if t := b.Content.Text(); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// IsMessages reports whether the request was a Messages API call with a
// parsed body.
func (r *Request) IsMessages() bool {
	return r.Method == http.MethodPost && r.Path == "/v1/messages" && r.Body != nil
}

// Model is the requested model id, or "".
func (r *Request) Model() string {
	if r.Body == nil {
		return ""
	}
	return r.Body.Model
}

// SystemText joins the text of the system blocks.
func (r *Request) SystemText() string {
	if r.Body == nil {
		return ""
	}
	return r.Body.System.Text()
}

// LastUser returns the last message whose role is "user" (never simply the
// last message: Claude Code interleaves role "system" messages).
func (r *Request) LastUser() (Message, bool) {
	if r.Body == nil {
		return Message{}, false
	}
	for i := len(r.Body.Messages) - 1; i >= 0; i-- {
		if r.Body.Messages[i].Role == "user" {
			return r.Body.Messages[i], true
		}
	}
	return Message{}, false
}

// LastUserText is the text of the last user message, including the text of
// any tool results it carries.
func (r *Request) LastUserText() string {
	m, _ := r.LastUser()
	return m.Content.Text()
}

// ToolResults returns the tool_result blocks of the last user message.
func (r *Request) ToolResults() []Block {
	m, _ := r.LastUser()
	var out []Block
	for _, b := range m.Content {
		if b.Type == "tool_result" {
			out = append(out, b)
		}
	}
	return out
}

// ToolUses returns every tool_use block of every assistant message, oldest
// first: the tool calls made so far in this conversation.
func (r *Request) ToolUses() []Block {
	if r.Body == nil {
		return nil
	}
	var out []Block
	for _, m := range r.Body.Messages {
		if m.Role != "assistant" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == "tool_use" {
				out = append(out, b)
			}
		}
	}
	return out
}

// AllText joins the system text and the text of every message of every
// role: what the model was shown, for "does it appear anywhere" checks.
func (r *Request) AllText() string {
	if r.Body == nil {
		return ""
	}
	parts := []string{r.Body.System.Text()}
	for _, m := range r.Body.Messages {
		parts = append(parts, m.Content.Text())
	}
	return strings.Join(parts, "\n")
}

// Tool returns the offered tool with the given name.
func (r *Request) Tool(name string) (Tool, bool) {
	if r.Body == nil {
		return Tool{}, false
	}
	for _, t := range r.Body.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// HasTool reports whether the named tool was offered.
func (r *Request) HasTool(name string) bool {
	_, ok := r.Tool(name)
	return ok
}

// ToolNames lists the offered tools' names in request order.
func (r *Request) ToolNames() []string {
	if r.Body == nil {
		return nil
	}
	names := make([]string, len(r.Body.Tools))
	for i, t := range r.Body.Tools {
		names[i] = t.Name
	}
	return names
}

// SessionID is the x-claude-code-session-id header: the id of the Claude
// Code session that made the call.
func (r *Request) SessionID() string {
	return r.Header.Get("X-Claude-Code-Session-Id")
}

// redactedHeaders are dropped from recordings.
var redactedHeaders = []string{"X-Api-Key", "Authorization"}

func cloneHeader(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range redactedHeaders {
		out.Del(k)
	}
	return out
}
