package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// fakeSession writes a shell script standing in for tribunal-session.
func fakeSession(t *testing.T, script string) string {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	p := filepath.Join(t.TempDir(), SessionProgram)
	testkit.WriteFileMode(t, p, "#!/bin/sh\n"+script, 0o755)
	return p
}

// TestChildRunner: a tool's command is a child given the arguments, the
// stdin, the environment and this process's directory; its stdout is the
// result, its stderr both the result's and passed on, its exit status
// the result's code.
func TestChildRunner(t *testing.T) {
	bin := fakeSession(t, `echo "args=$*"; echo "in=$(cat)"; echo "env=$TRIBUNAL_TEST"; echo "pwd=$(pwd)"
echo "tribunal: progress" >&2; echo "tribunal: error: it broke" >&2; exit 10
`)
	var stderr testkit.LockedBuffer
	run := ChildRunner(bin, []string{"PATH=/usr/bin:/bin", "TRIBUNAL_TEST=passed"}, &stderr)
	r := run(context.Background(), []string{"review", "--json"}, "a diff")
	wd, _ := os.Getwd()
	wantOut := "args=review --json\nin=a diff\nenv=passed\npwd=" + wd + "\n"
	wantErr := "tribunal: progress\ntribunal: error: it broke\n"
	if r.Stdout != wantOut || r.Stderr != wantErr || r.Code != 10 {
		t.Errorf("Result = %+v, want stdout %q, stderr %q, code 10", r, wantOut, wantErr)
	}
	if stderr.String() != wantErr {
		t.Errorf("passed on %q, want %q", stderr.String(), wantErr)
	}
}

// TestChildRunnerFailures: a child that could not start or was killed is
// an error result in tribunal's words, not an exit status of -1.
func TestChildRunnerFailures(t *testing.T) {
	killed := fakeSession(t, "echo 'tribunal: working' >&2; kill -9 $$\n")
	r := ChildRunner(killed, nil, io.Discard)(context.Background(), []string{"log", "--json"}, "")
	if r.Code != exitAborted || !strings.HasSuffix(r.Stderr, "tribunal: error: mcp: tribunal-session log ended by signal killed\n") ||
		!strings.HasPrefix(r.Stderr, "tribunal: working\n") {
		t.Errorf("killed: %+v", r)
	}
	r = ChildRunner(filepath.Join(t.TempDir(), "gone"), nil, io.Discard)(context.Background(), []string{"log"}, "")
	if r.Code != exitAborted || !strings.Contains(r.Stderr, "tribunal: error: mcp: gone log: start:") {
		t.Errorf("not started: %+v", r)
	}
}

// TestCancelledCallKillsItsChild: a client that cancels a tool call gets
// the command's whole process group killed — the child and what it
// started. The child holds a FIFO open, and so does its own child: the
// test's read of it ends only when both are gone.
func TestCancelledCallKillsItsChild(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "held")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	bin := fakeSession(t, `exec 3>"$HELD"; echo started >&3; sleep 300 & wait`+"\n")
	cs := connect(t, Options{Run: ChildRunner(bin, []string{"PATH=/usr/bin:/bin", "HELD=" + fifo}, io.Discard)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolList, Arguments: json.RawMessage(`{}`)})
		called <- err
	}()
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.Open(fifo) // returns once the child opened it to write
		if err != nil {
			t.Error(err)
			close(opened)
			return
		}
		opened <- f
	}()
	f := within(t, opened, "the child to start")
	defer f.Close()
	r := bufio.NewReader(f)
	if line, _ := r.ReadString('\n'); line != "started\n" {
		t.Fatalf("child said %q", line)
	}
	cancel()
	if err := within(t, called, "the call to return"); err == nil {
		t.Error("the cancelled call returned no error")
	}
	gone := make(chan struct{})
	go func() { io.Copy(io.Discard, r); close(gone) }() // EOF: every writer is dead
	within(t, gone, "the child and its sleep to be killed")
}

// within waits for a value on ch, failing the test if none comes in a
// time no working run nears.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
	}
	var zero T
	return zero
}

// TestMainStartup: started wrong, or without tribunal-session beside it, the
// server says so and exits 2 before serving; --version answers.
func TestMainStartup(t *testing.T) {
	lonely := filepath.Join(t.TempDir(), ServerProgram)
	testkit.WriteFileMode(t, lonely, "#!/bin/sh\n", 0o755)
	real, _ := filepath.EvalSymlinks(filepath.Dir(lonely))
	hint := "tribunal: hint: reinstall tribunal (make install) so that all its programs are in one directory\n"
	tests := []struct {
		name         string
		args         []string
		self         string
		code         int
		stdout, want string
	}{
		{"no tribunal-session beside it", nil, lonely, 2, "",
			"tribunal: error: mcp: tribunal-session is not installed in " + real + "\n" + hint},
		{"its own path unknown", nil, "", 2, "",
			"tribunal: error: mcp: tribunal-session is not installed beside this program (its path is unknown)\n" + hint},
		{"an argument", []string{"serve"}, lonely, 2, "",
			"tribunal: error: mcp: tribunal-mcp takes no arguments, got \"serve\"\n" +
				"tribunal: hint: an MCP client starts it as: tribunal-mcp (or: tribunal-session mcp)\n"},
		{"--version", []string{"--version"}, lonely, 0, "tribunal-mcp 1.2.3\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), Program{Args: tt.args, Version: "1.2.3", Self: tt.self,
				Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
			if code != tt.code || stdout.String() != tt.stdout || stderr.String() != tt.want {
				t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit %d, stdout %q, stderr\n%s", code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.want)
			}
		})
	}
}
