package main

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/mcpserver"
	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
	"github.com/tribunal-cc/tribunal/internal/version"
)

const mcpHelp = `usage: tribunal-session mcp

Serves tribunal's tools over the Model Context Protocol on stdin and
stdout, for an agent to call mid-task (the plugin registers it with
Claude Code as the server "tribunal"; any MCP client can start it):

  judge            judge the working tree's uncommitted change (or a given
                   diff, a base..head range, the staged changes) with the
                   configured jury and rubric, as 'review --json' does;
                   returns the verdict, the findings and the record id;
                   with candidate, judges that text as an answer to task
  verify           judge an answer against its question (and optionally an
                   expected answer, criteria, context), as 'judge' does
  list_verdicts    this repository's recorded verdicts, as 'log --json'
  show_verdict     one record, as 'show ID --json'
  dismiss_finding  dismiss a finding, as 'dismiss ID FINDING --reason …'

Each tool runs in the directory the server was started in, with the same
settings, trust boundary and records as the command it names. A call with
an argument the tool does not take is refused before anything runs.
Inside a child tribunal started (TRIBUNAL_NESTED set: an actor's or a
judge's session) judge, verify and dismiss_finding are refused. stdout carries
only the protocol; progress goes to stderr.

Exit status: 0 when the client closes the connection; 2 usage error.
`

func (c *cli) mcpCmd(ctx context.Context, args []string) int {
	args, ok := c.positional("mcp", args)
	if !ok {
		return exitUsage
	}
	if len(args) > 0 {
		c.errorf("mcp takes no arguments, got %q", args[0])
		c.hint("an MCP client starts it as: tribunal-session mcp")
		return exitUsage
	}
	c.progress("mcp: serving judge, verify, list_verdicts, show_verdict and dismiss_finding on stdio")
	o := mcpserver.Options{Version: version.Version, Nested: c.getenv(childenv.GuardEnv) != "", Run: c.mcpRunner()}
	if err := mcpserver.Serve(ctx, o, c.stdin, c.stdout); err != nil {
		c.errorf("mcp: %v", err)
		return exitAborted
	}
	return exitAccepted
}

// mcpRunner runs one command in this process for a tool: its stdout is
// captured (the process's own is the protocol), its stderr goes to the
// server's stderr and is captured too, for the tool's error.
func (c *cli) mcpRunner() mcpserver.Runner {
	return func(ctx context.Context, args []string, stdin string) mcpserver.Result {
		var out, errb bytes.Buffer
		code := runCommand(ctx, args, c.getenv, strings.NewReader(stdin), &out, io.MultiWriter(c.stderr, &errb), noTerminal)
		return mcpserver.Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
	}
}

// runCommand is run, bound in init: the commands table refers to mcpCmd,
// which runs commands through run, which reads the table (a direct
// reference would be an initialisation cycle).
var runCommand func(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer, term terminal) int

func init() { runCommand = run }

// noTerminal: a tool's output is never shown on a terminal.
func noTerminal(io.Writer) (bool, int) { return false, 0 }
