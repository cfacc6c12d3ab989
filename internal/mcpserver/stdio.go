package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound line, as the SDK's own stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

// stdio is the transport Serve runs on: the SDK's newline-delimited
// transport behind a line filter. The SDK ends the connection on the
// first line it cannot decode (the server exited 3 on one stray line) and,
// on end of input, cancels the requests still running and refuses their
// answers. The filter answers an unparsable line itself (JSON-RPC -32700,
// or -32600 for JSON that is no message) and passes on only lines the SDK
// decodes; at end of input it holds the SDK's end of file back until every
// request it passed on has been answered.
type stdio struct {
	in  io.Reader
	out io.Writer
}

// Connect implements mcp.Transport.
func (s *stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	t := &tracker{w: s.out, pending: map[jsonrpc.ID]int{}, closed: make(chan struct{})}
	go s.filter(ctx, t, pw)
	return (&mcp.IOTransport{Reader: closeNotifier{pr, t}, Writer: t}).Connect(ctx)
}

// filter copies the input to pw line by line, answering the lines the SDK
// could not decode, and closes pw once the input ended and nothing is owed.
func (s *stdio) filter(ctx context.Context, t *tracker, pw *io.PipeWriter) {
	r := bufio.NewReaderSize(s.in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			t.reply(errorLine(nil, jsonrpc.CodeParseError, "Parse error: line longer than 16 MiB"))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			ids, bad := check(line)
			if bad != nil {
				t.reply(bad)
			} else {
				// Owed before the SDK can see it, so its answer can
				// never come before it is expected.
				t.expect(ids)
				if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return // the connection closed: nobody reads on
				}
			}
		}
		if err != nil {
			break
		}
	}
	t.wait(ctx)
	pw.Close()
}

// readLine reads one line without its newline; a line over maxLine is
// skipped to its end and reported as too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		frag, isPrefix, rerr := r.ReadLine()
		if !tooLong {
			if len(line)+len(frag) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if rerr != nil || !isPrefix {
			return line, tooLong, rerr
		}
	}
}

// check decides whether the SDK can take line: it returns the ids of the
// requests in it that are owed an answer, or the error line to answer
// instead. A batch (an array) passes when every member is a message.
func check(line []byte) ([]jsonrpc.ID, []byte) {
	if !json.Valid(line) {
		return nil, errorLine(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON")
	}
	var raws []json.RawMessage
	if line[0] != '[' {
		raws = []json.RawMessage{line}
	} else if err := json.Unmarshal(line, &raws); err != nil || len(raws) == 0 {
		return nil, errorLine(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: an empty or malformed batch")
	}
	var ids []jsonrpc.ID
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, errorLine(rawID(raw), jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message")
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			ids = append(ids, req.ID)
		}
	}
	return ids, nil
}

// rawID is the id of a message that is otherwise not one, when it has a
// usable one (a string or a number), so the error can name its request.
func rawID(raw []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.ID) == 0 || (m.ID[0] != '"' && m.ID[0] != '-' && (m.ID[0] < '0' || m.ID[0] > '9')) {
		return nil
	}
	return m.ID
}

// errorLine is a JSON-RPC error response; a nil id is written as null, as
// JSON-RPC 2.0 asks when the request's id could not be read.
func errorLine(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(wireError{Version: "2.0", ID: id, Error: wireErrorBody{code, message}})
	return append(b, '\n')
}

type wireError struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   wireErrorBody   `json:"error"`
}

type wireErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// tracker is the output side: it serialises writes (the SDK writes one
// whole message per Write; the filter's own answers go between them) and
// counts the requests passed to the SDK and not yet answered.
type tracker struct {
	mu      sync.Mutex
	w       io.Writer
	pending map[jsonrpc.ID]int
	owed    int
	idle    chan struct{}
	closed  chan struct{}
	once    sync.Once
}

func (t *tracker) expect(ids []jsonrpc.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range ids {
		t.pending[id]++
		t.owed++
	}
}

// reply writes one of the filter's own answers.
func (t *tracker) reply(line []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.w.Write(line) //nolint:errcheck // a broken stdout ends the session through the SDK's writes
}

// Write implements io.Writer for the SDK and settles each answer it
// carries.
func (t *tracker) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, err := t.w.Write(p)
	for _, id := range responseIDs(p) {
		if t.pending[id] == 0 {
			continue
		}
		t.pending[id]--
		t.owed--
		if t.pending[id] == 0 {
			delete(t.pending, id)
		}
	}
	if t.owed == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
	return n, err
}

// Close implements io.WriteCloser; stdout stays open to the process's end.
func (t *tracker) Close() error { return nil }

// wait returns once nothing is owed, the SDK's connection closed, or ctx
// ended.
func (t *tracker) wait(ctx context.Context) {
	t.mu.Lock()
	if t.owed == 0 {
		t.mu.Unlock()
		return
	}
	idle := make(chan struct{})
	t.idle = idle
	t.mu.Unlock()
	select {
	case <-idle:
	case <-t.closed:
	case <-ctx.Done():
	}
}

// responseIDs are the ids of the responses in one written message or
// batch.
func responseIDs(p []byte) []jsonrpc.ID {
	p = bytes.TrimSpace(p)
	raws := []json.RawMessage{p}
	if len(p) > 0 && p[0] == '[' && json.Unmarshal(p, &raws) != nil {
		return nil
	}
	var ids []jsonrpc.ID
	for _, raw := range raws {
		if msg, err := jsonrpc.DecodeMessage(raw); err == nil {
			if resp, ok := msg.(*jsonrpc.Response); ok {
				ids = append(ids, resp.ID)
			}
		}
	}
	return ids
}

// closeNotifier is the SDK's reader: its Close (the connection ending)
// also releases a filter waiting for answers that will never come.
type closeNotifier struct {
	*io.PipeReader
	t *tracker
}

func (c closeNotifier) Close() error {
	c.t.once.Do(func() { close(c.t.closed) })
	return c.PipeReader.Close()
}
