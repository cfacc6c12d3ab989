package mcpserver

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// Program names: the server is its own program so that tribunal-session
// does not link the MCP SDK; each tool runs the sibling tribunal-session.
const (
	ServerProgram  = "tribunal-mcp"
	SessionProgram = "tribunal-session"
)

// Exit statuses of the server itself, as `tribunal-session mcp` has them.
const (
	exitUsage   = 2
	exitAborted = 3
)

// childStopGrace is how long a cancelled tool's tribunal-session has,
// after SIGTERM, to record itself as aborted and stop its judges before
// its process group is killed: it exits by itself within 5 s of the
// signal whatever it is blocked on.
const childStopGrace = 6 * time.Second

// childStderrTail is how much of a command's stderr a tool keeps for its
// error: lastLines shows the last 20 lines, and a progress line is short.
const childStderrTail = 64 << 10

// Program is what tribunal-mcp is given by its main.
type Program struct {
	Args    []string
	Version string
	// Self is the running binary's path (proc.Self): tribunal-session is
	// found beside it, never on PATH.
	Self   string
	Getenv func(string) string
	// Environ is the environment every command is run with: the
	// server's own, unchanged.
	Environ []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
}

// Main serves the tools on stdin and stdout until the client closes the
// connection or ctx ends (a termination signal), and returns the exit
// status: 0 (also after --version); 2 when it was started with arguments
// or tribunal-session is not beside it; 3 when serving failed.
func Main(ctx context.Context, p Program) int {
	say := output.Session{W: p.Stderr}
	if len(p.Args) == 1 && p.Args[0] == "--version" {
		// What an installation check asks each program.
		fmt.Fprintf(p.Stdout, "%s %s\n", ServerProgram, p.Version)
		return 0
	}
	if len(p.Args) > 0 {
		say.Errorf("mcp: %s takes no arguments, got %q", ServerProgram, p.Args[0])
		say.Hint("an MCP client starts it as: %s (or: tribunal-session mcp)", ServerProgram)
		return exitUsage
	}
	session, err := proc.Helper(p.Self, SessionProgram)
	if err != nil {
		dir := ""
		if p.Self != "" {
			dir = proc.HelperDir(p.Self)
		}
		say.MissingProgram("mcp", SessionProgram, dir)
		return exitUsage
	}
	say.Progress("mcp: serving judge, verify, list_verdicts, show_verdict and dismiss_finding on stdio")
	o := Options{Version: p.Version, Nested: p.Getenv(childenv.GuardEnv) != "",
		Run: ChildRunner(session, p.Environ, p.Stderr)}
	if err := Serve(ctx, o, p.Stdin, p.Stdout); err != nil {
		say.Errorf("mcp: %v", err)
		return exitAborted
	}
	return 0
}

// ChildRunner runs each tool's command as a child `tribunal-session ARGS…`
// (session is its path) with env, in the server's working directory (the
// tools "run in the directory the server was started in"): stdin given,
// stdout captured, stderr captured and passed on to stderr as it comes.
// The child is a process group of its own: when the tool call's context
// ends (the client cancelled it, or the server is stopping) it is asked
// to stop, as a run in process was, so that its record says aborted, and
// its group is killed whole. It redacts its own output, as every
// tribunal-session does.
func ChildRunner(session string, env []string, stderr io.Writer) Runner {
	return func(ctx context.Context, args []string, stdin string) Result {
		res, err := proc.Run(ctx, proc.Cmd{Path: session, Args: args, Env: env, Stdin: stdin,
			MaxTail: childStderrTail, StderrTee: stderr, Interrupt: childStopGrace})
		r := Result{Stdout: string(res.Stdout), Stderr: res.Stderr, Code: res.ExitCode}
		if err == nil && res.Signal == "" {
			return r
		}
		// Started and gone, or never started: the tool's error says so
		// in tribunal's words, after whatever the command said.
		var b strings.Builder
		b.WriteString(r.Stderr)
		say := output.Session{W: &b}
		switch {
		case err != nil:
			say.Errorf("mcp: %s %s: %v", filepath.Base(session), args[0], err)
		default:
			say.Errorf("mcp: %s %s ended by signal %s", filepath.Base(session), args[0], res.Signal)
		}
		return Result{Stdout: r.Stdout, Stderr: b.String(), Code: exitAborted}
	}
}
