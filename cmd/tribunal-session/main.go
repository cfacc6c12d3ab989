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
	c := &cli{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, isTerminal: terminalWriter}
	if len(args) == 0 {
		c.usage()
		return exitUsage
	}
	switch args[0] {
	case "version", "--version":
		return c.versionCmd()
	case "help", "-h", "-help", "--help":
		c.usage()
		return 0
	}
	sub, ok := commands[args[0]]
	if !ok {
		c.errorf("unknown command %q", args[0])
		c.hint("run 'tribunal-session help' for the list of commands")
		return exitUsage
	}
	return sub(ctx, c, args[1:])
}

// commands is every subcommand of tribunal-session, in one table: adding a
// command means adding its row here and its line to usageText.
var commands = map[string]func(ctx context.Context, c *cli, args []string) int{
	"run":       func(ctx context.Context, c *cli, args []string) int { return c.runCmd(ctx, args) },
	"wait":      func(ctx context.Context, c *cli, args []string) int { return c.waitCmd(ctx, args) },
	"cancel":    func(_ context.Context, c *cli, args []string) int { return c.cancelCmd(args) },
	"decide":    func(_ context.Context, c *cli, args []string) int { return c.decideCmd(args) },
	"log":       func(ctx context.Context, c *cli, args []string) int { return c.logCmd(ctx, args) },
	"show":      func(ctx context.Context, c *cli, args []string) int { return c.showCmd(ctx, args) },
	"replay":    func(ctx context.Context, c *cli, args []string) int { return c.replayCmd(ctx, args) },
	"verify":    func(ctx context.Context, c *cli, args []string) int { return c.verifyCmd(ctx, args) },
	"keygen":    func(_ context.Context, c *cli, args []string) int { return c.keygenCmd(args) },
	"calibrate": func(ctx context.Context, c *cli, args []string) int { return c.calibrateCmd(ctx, args) },
	"rejudge":   func(ctx context.Context, c *cli, args []string) int { return c.rejudgeCmd(ctx, args) },
}
