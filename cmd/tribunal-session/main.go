// Command tribunal-session runs /tribunal tasks through the Actor → Jury → Meta-Judge → Gate loop and answers questions about recorded verdicts.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes, in one place (also in usage and the README).
const (
	exitAccepted    = 0
	exitNotAccepted = 10
	exitUsage       = 2
	exitAborted     = 3
	exitStillRuning = 75
	exitBrokenChain = 20
	exitBadSig      = 21
)

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		c.usage()
		return exitUsage
	}
	switch args[0] {
	case "run":
		return c.runCmd(ctx, args[1:])
	case "wait":
		return c.waitCmd(ctx, args[1:])
	case "cancel":
		return c.cancelCmd(args[1:])
	case "decide":
		return c.decideCmd(args[1:])
	case "version", "--version":
		return c.versionCmd()
	case "help", "-h", "-help", "--help":
		c.usage()
		return 0
	default:
		if sub, ok := extraCommands[args[0]]; ok {
			return sub(ctx, c, args[1:])
		}
		c.errorf("unknown command %q", args[0])
		c.hint("run 'tribunal-session help' for the list of commands")
		return exitUsage
	}
}

// extraCommands holds the commands defined in other files of this package
// (history, ledger), so that this switch stays readable.
var extraCommands = map[string]func(ctx context.Context, c *cli, args []string) int{}
