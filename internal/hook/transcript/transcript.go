// Package transcript extracts what a judge needs from a Claude Code session
// transcript: the user's last request and the assistant's final message.
package transcript

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/hook/hookio"
)

// Read limits: the first read covers the end of almost any session's last
// turn; only when it holds no human prompt (a turn with huge tool results)
// is a larger tail read, and never more than that.
const (
	FirstReadBytes = 512 << 10
	MaxReadBytes   = 8 << 20
)

// Exchange is the last turn as a judge needs it.
type Exchange struct {
	// Request is the text of the last human prompt: a user line that is
	// neither a tool result nor hook feedback (isMeta) nor other synthetic
	// input.
	Request string
	// Reply is the text of the last assistant message that had any text,
	// its text blocks joined by blank lines (the transcript holds one line
	// per content block).
	Reply string
}

// Read extracts the last exchange from the transcript at path, reading
// only its tail (FirstReadBytes, then up to MaxReadBytes when the first
// read holds no request). A FIFO or other non-regular file is refused
// without blocking (hookio.Tail).
func Read(path string) (Exchange, error) {
	tail, err := hookio.Tail(path, FirstReadBytes)
	if err != nil {
		return Exchange{}, err
	}
	ex := Parse(tail)
	if ex.Request == "" && len(tail) >= FirstReadBytes {
		more, err := hookio.Tail(path, MaxReadBytes)
		if err != nil {
			return ex, err
		}
		wider := Parse(more)
		ex.Request = wider.Request
		if ex.Reply == "" {
			ex.Reply = wider.Reply
		}
	}
	return ex, nil
}

// Parse scans transcript JSONL (possibly starting mid-line, as a tail does)
// and returns the last exchange. Lines that are not JSON objects or not of
// a known shape are skipped, so a torn or foreign line costs nothing.
func Parse(jsonl []byte) Exchange {
	var ex Exchange
	replyID := ""
	var reply []string
	for len(jsonl) > 0 {
		var line []byte
		line, jsonl, _ = bytes.Cut(jsonl, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
			continue
		}
		r := gjson.ParseBytes(line)
		switch r.Get("type").String() {
		case "user":
			if text, ok := humanPrompt(r); ok {
				ex.Request = text
			}
		case "assistant":
			text := blockText(r.Get("message.content"))
			if text == "" {
				continue
			}
			id := r.Get("message.id").String()
			if id == "" || id != replyID {
				replyID, reply = id, nil
			}
			reply = append(reply, text)
			ex.Reply = strings.Join(reply, "\n\n")
		}
	}
	return ex
}

// humanPrompt returns the text of a user line typed by the human: not hook
// feedback (isMeta), not a tool result, not empty.
func humanPrompt(r gjson.Result) (string, bool) {
	if r.Get("isMeta").Bool() || r.Get("rowSource").String() == "hook" || r.Get("toolUseResult").Exists() {
		return "", false
	}
	c := r.Get("message.content")
	if c.Type == gjson.String {
		s := c.String()
		return s, strings.TrimSpace(s) != ""
	}
	if !c.IsArray() {
		return "", false
	}
	for _, b := range c.Array() {
		if b.Get("type").String() == "tool_result" {
			return "", false
		}
	}
	s := blockText(c)
	return s, strings.TrimSpace(s) != ""
}

// blockText joins the text of a content value: a string as is, or the
// "text" blocks of an array.
func blockText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.String()
	}
	var parts []string
	for _, b := range c.Array() {
		if b.Get("type").String() == "text" {
			if t := b.Get("text").String(); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}
