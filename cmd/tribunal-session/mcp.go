package main

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc"
)

const mcpHelp = `usage: tribunal-session mcp

Serves tribunal's tools over the Model Context Protocol on stdin and
stdout, for an agent to call mid-task: it runs tribunal-mcp, the server
installed beside tribunal-session (the plugin registers tribunal-mcp
with Claude Code as the server "tribunal"; any MCP client can start
either):

  judge            judge the working tree's uncommitted change (or a given
                   diff, a base..head range, the staged changes) with the
                   configured jury and rubric, as 'review --json' does;
                   returns the verdict, the findings and the record id;
                   with candidate, judges that text as an answer to task
  verify           judge an answer against its question (and optionally an
                   expected answer, criteria, context), as 'judge' does;
                   with candidates (2 to 5 answers) and strategy (best,
                   rank, merge), choose between them as 'judge
                   --candidates' does (the texts go to a private
                   temporary directory, removed after the call)
  list_verdicts    this repository's recorded verdicts, as 'log --json'
  show_verdict     one record, as 'show ID --json'
  dismiss_finding  dismiss a finding, as 'dismiss ID FINDING --reason …'

Each tool runs in the directory the server was started in, with the same
settings, trust boundary and records as the command it names. A call with
an argument the tool does not take is refused before anything runs.
Inside a child tribunal started (TRIBUNAL_NESTED set: an actor's or a
judge's session) judge, verify and dismiss_finding are refused. stdout carries
only the protocol; progress goes to stderr.

Each call runs its command as a child tribunal-session; cancelling the
call stops it.

Exit status: 0 when the client closes the connection; 2 usage error, or
tribunal-mcp is not installed beside tribunal-session.
`

// mcpProgram is the server, a program of its own beside this one: the
// MCP SDK and its JSON Schema library stay out of every other command's
// start. The plugin starts it directly; this command is for the MCP
// clients configured with `tribunal-session mcp`.
const mcpProgram = "tribunal-mcp"

// mcpStopGrace is how long the server has, once this command is told to
// stop, to stop its tools' children before it is killed: within
// stopGrace, after which this process exits anyway.
const mcpStopGrace = 4 * time.Second

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
	self := selfPath()
	bin, err := proc.Helper(self, mcpProgram)
	if err != nil {
		dir := ""
		if self != "" {
			dir = proc.HelperDir(self)
		}
		c.say().MissingProgram("mcp", mcpProgram, dir)
		return exitUsage
	}
	return c.runMCP(ctx, bin)
}

// runMCP runs the server on this command's own streams, with its
// environment and working directory, and exits as it exits. A termination
// signal reaches it as SIGTERM, on which it stops its tools' children.
func (c *cli) runMCP(ctx context.Context, bin string) int {
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.stdin, c.stdout, c.stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = mcpStopGrace
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitAccepted
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	case errors.As(err, &exit) || ctx.Err() != nil:
		// Ended by a signal: stopped, as the server itself is when told to.
		return exitAborted
	}
	c.errorf("mcp: %s: %v", mcpProgram, err)
	return exitAborted
}
