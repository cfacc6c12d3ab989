package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// pipeServer runs Serve on pipes and returns its stdin, its stdout's
// lines and the channel Serve's error arrives on.
func pipeServer(t *testing.T, o Options, eof chan struct{}) (io.WriteCloser, <-chan string, <-chan error) {
	t.Helper()
	pr, inW := io.Pipe()
	inR := &eofReader{r: pr, eof: eof}
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), o, io.NopCloser(inR), outW); outW.Close() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return inW, lines, done
}

// eofReader closes eof (when set) once the server has read the end of its
// input.
type eofReader struct {
	r   io.Reader
	eof chan struct{}
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF && e.eof != nil {
		close(e.eof)
		e.eof = nil
	}
	return n, err
}

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// next is the next line the server wrote, within a deadline (a server that
// stopped answering fails the test instead of hanging it).
func next(t *testing.T, lines <-chan string) map[string]any {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the server closed stdout without answering")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON on stdout: %q", l)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no answer within 10 s")
	}
	return nil
}

func send(t *testing.T, w io.Writer, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// TestMalformedLineIsAnswered: a line that is not JSON, or JSON that is
// no JSON-RPC message, is answered with an error (id null) and the server
// goes on serving; it used to end the session, exit 3.
func TestMalformedLineIsAnswered(t *testing.T) {
	in, lines, done := pipeServer(t, Options{Run: (&recorder{}).run}, nil)
	send(t, in, initLine, initializedLine)
	if m := next(t, lines); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize answered %v", m)
	}
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":`, `{"id":3,"hello":true}`, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	for _, want := range []struct {
		id   any
		code float64
	}{{nil, -32700}, {3.0, -32600}} {
		m := next(t, lines)
		e, _ := m["error"].(map[string]any)
		if id, present := m["id"]; !present || id != want.id || e == nil || e["code"] != want.code {
			t.Fatalf("got %v, want error %v with id %v", m, want.code, want.id)
		}
	}
	m := next(t, lines)
	if m["id"] != 4.0 || !strings.Contains(mustJSON(m["result"]), `"name":"judge"`) {
		t.Fatalf("tools/list after the bad lines answered %v", m)
	}
	in.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// TestInFlightAnsweredAtEOF: a tools/call still running when the client
// closes stdin gets its answer before the server exits; the SDK alone
// cancelled it and refused the answer.
func TestInFlightAnsweredAtEOF(t *testing.T) {
	started, eof := make(chan struct{}), make(chan struct{})
	run := func(ctx context.Context, _ []string, _ string) Result {
		close(started)
		// It finishes once the server has read the end of its input, or
		// when cancelled (which the server must not do to it).
		select {
		case <-eof:
			return Result{Stdout: `{"outcome": "accepted"}`}
		case <-ctx.Done():
			return Result{Stderr: "tribunal: error: cancelled\n", Code: exitIncomplete}
		}
	}
	in, lines, done := pipeServer(t, Options{Run: run}, eof)
	send(t, in, initLine, initializedLine)
	next(t, lines)
	send(t, in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_verdicts","arguments":{}}}`)
	<-started
	in.Close()
	m := next(t, lines)
	if m["id"] != 7.0 || !strings.Contains(mustJSON(m["result"]), "accepted") {
		t.Fatalf("the call in flight at end of input was answered %v", m)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
