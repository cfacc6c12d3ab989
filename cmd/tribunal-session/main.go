// Command tribunal-session runs /tribunal tasks through the Actor → Jury → Meta-Judge → Gate loop and answers questions about recorded verdicts.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// terminationSignals end a run: each kills every child process group and
// the run is recorded as aborted. SIGHUP is among them because a detached
// run has no terminal and gets it only when someone means it.
var terminationSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	if !printsOnly(os.Args[1:]) {
		deferCollector(os.Getenv, afterFunc)
	}
	os.Exit(runWithSignals(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}

// stopGrace is how long a command may take to wind down after a
// termination signal (kill its judges, record itself as aborted) before
// the process exits anyway.
const stopGrace = 5 * time.Second

// runWithSignals is run with the terminationSignals (SIGTERM is what
// `cancel` sends) cancelling its context, and a watchdog: whatever the
// command is blocked on when the signal comes (an open or a read that no
// context reaches), it ends within stopGrace. Its children die with their
// own context.
func runWithSignals(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if printsOnly(args) {
		// Installing the handlers starts the runtime's signal thread,
		// 0.7 ms of a --version that takes 4: a command that only prints
		// its own text has nothing for a signal to wind down.
		return run(context.Background(), args, getenv, stdin, stdout, stderr, stdTerminal)
	}
	ctx, stop := signal.NotifyContext(context.Background(), terminationSignals...)
	defer stop()
	// A reader that goes away (`review … | head -2`) must not kill a run
	// half-recorded: with SIGPIPE notified (to a channel nobody reads),
	// a write to a closed stdout or stderr returns EPIPE instead of
	// ending the process, and the cli's writers drop what follows. Notify,
	// not Ignore: an ignored signal stays ignored in the judges' and
	// git's processes, whose own pipelines rely on SIGPIPE.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, getenv, stdin, stdout, stderr, stdTerminal) }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
	}
	select {
	case code := <-done:
		return code
	case <-time.After(stopGrace):
		output.Session{W: stderr}.StillBusy(stopGrace)
		return exitAborted
	}
}

// printsOnly reports whether args ask for text the binary holds — the
// version, the help — and nothing else.
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "--version", "-h", "-help", "--help":
		return len(args) == 1
	case "version", "help":
		return len(args) <= 2
	}
	return false
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
	exitNotAnchored = 22
	// verify-receipt (and receipt, when no commit gets one): in order of
	// severity, so that a range exits with its worst commit's code.
	exitReceiptMissing   = 30
	exitReceiptNotPassed = 31
	exitReceiptTree      = 32
	exitReceiptSigner    = 33
	exitReceiptBad       = 34
)

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer, term terminal) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "version") {
		// Answered before the settings are read for the redactor: the
		// version holds no credential, and a script asks it often.
		fmt.Fprintln(stdout, versionText())
		return 0
	}
	red := credentials(getenv)
	c := &cli{getenv: getenv, stdin: stdin, stdout: red.Writer(&quietPipe{w: stdout}), stderr: red.Writer(&quietPipe{w: stderr}), red: red}
	// The wrapped streams are asked about as the files they wrap.
	c.term = func(w io.Writer) (bool, int) {
		switch w {
		case c.stdout:
			w = stdout
		case c.stderr:
			w = stderr
		}
		return term(w)
	}
	if len(args) == 0 {
		c.usage(c.stderr)
		return exitUsage
	}
	switch args[0] {
	case "--version":
		return c.versionCmd(nil)
	case "-h", "-help", "--help":
		c.usage(c.stdout)
		return 0
	}
	cmd, ok := lookup(args[0])
	if !ok {
		c.errorf("unknown command %q%s", args[0], suggestCommand(args[0]))
		c.hint("run 'tribunal-session help' for the list of commands")
		return exitUsage
	}
	if wantsHelp(args[1:]) {
		fmt.Fprint(c.stdout, cmd.help)
		return 0
	}
	if cmd.run == nil {
		return c.helpCmd(args[1:])
	}
	if callsModel(cmd.name, args[1:]) {
		if code := c.refuseDisabled(cmd.name, workRoot()); code >= 0 {
			return code
		}
	}
	return cmd.run(ctx, c, args[1:])
}

// credentials is the redactor of every credential the user's settings
// configure (provider settings are honoured from user-level files only,
// so the plugin and user layers hold them all): built once, it scrubs what
// this process prints and what a run stores.
func credentials(getenv func(string) string) *redact.Redactor {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	cfg := config.Load(config.Sources{PluginRoot: getenv("CLAUDE_PLUGIN_ROOT"), Home: home})
	return provider.Redactor(provider.Specs(cfg.Providers()), getenv, os.Environ())
}

// command is one subcommand: its name, the line the global help gives it,
// the text "<name> -h" prints, and its entry point.
type command struct {
	name    string
	summary string
	help    string
	run     func(ctx context.Context, c *cli, args []string) int
}

// commands is every subcommand of tribunal-session, in one table and in the
// order the global help lists them: adding a command means adding its row
// here (the global help is built from this table).
var commands = []command{
	{"run", "run a task through Actor → Jury → Meta-Judge → Gate", runHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.runCmd(ctx, args) }},
	{"review", "judge an existing change (a branch, the staged changes, a diff) with no actor", reviewHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.reviewCmd(ctx, args) }},
	{"judge", "judge an answer (or a JSONL batch of them) against a question, an expected answer and the rubric", judgeHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.judgeCmd(ctx, args) }},
	{"mcp", "serve judge, verify, list, show and dismiss as Model Context Protocol tools on stdio", mcpHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.mcpCmd(ctx, args) }},
	{"wait", "wait for a detached run, streaming its progress", waitHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.waitCmd(ctx, args) }},
	{"cancel", "stop a detached run", cancelHelp,
		func(_ context.Context, c *cli, args []string) int { return c.cancelCmd(args) }},
	{"decide", "the aggregate and the gate as one pure command: JSON in, JSON out", decideHelp,
		func(_ context.Context, c *cli, args []string) int { return c.decideCmd(args) }},
	{"log", "this project's recent tasks and advisory verdicts", logHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.logCmd(ctx, args) }},
	{"show", "everything recorded about one task or advisory verdict", showHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.showCmd(ctx, args) }},
	{"replay", "recompute a task's gates with the current rules", replayHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.replayCmd(ctx, args) }},
	{"view", "write a self-contained HTML page of a task, or an index of them all", viewHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.viewCmd(ctx, args) }},
	{"rubrics", "the rubrics in effect here and where each comes from", rubricsHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.rubricsCmd(ctx, args) }},
	{"config", "the effective settings and the file each comes from; --check validates", configHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.configCmd(ctx, args) }},
	{"doctor", "check the claude CLI, plugin, hooks, settings, store and providers", doctorHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.doctorCmd(ctx, args) }},
	{"apply", "apply a kept task's change to the working tree (uncommitted)", applyHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.applyCmd(ctx, args) }},
	{"discard", "drop a kept task's ref; the working tree is not touched", discardHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.discardCmd(ctx, args) }},
	{"gc", "reclaim idle task worktrees; --records: prune old records", gcHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.gcCmd(ctx, args) }},
	{"calibrate", "measure the judges against labelled cases (agreement, κ, catch rate, …)", calibrateHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.calibrateCmd(ctx, args) }},
	{"tune", "improve the rubric against labelled cases, shipped only on held-out evidence", tuneHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.tuneCmd(ctx, args) }},
	{"rejudge", "shadow mode: judge past tasks' iterations with the current configuration", rejudgeHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.rejudgeCmd(ctx, args) }},
	{"dismiss", "dismiss a finding so no judge raises it again until its code changes; --undo", dismissHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.dismissCmd(ctx, args) }},
	{"dismissals", "every dismissal in effect here: who, when, why, how often it suppressed a finding", dismissalsHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.dismissalsCmd(ctx, args) }},
	{"github", "the GitHub Action's steps around review: prepare the task, publish the comment", githubHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.githubCmd(ctx, args) }},
	{"gitlab", "the GitLab job's step after review: the merge request note and discussions", gitlabHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.gitlabCmd(ctx, args) }},
	{"hook", "review before a commit or push: install, uninstall or run tribunal's git hooks", hookHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.hookCmd(ctx, args) }},
	{"verify", "check the signed verdict ledger", verifyHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.verifyCmd(ctx, args) }},
	{"keygen", "create a new ledger signing key", keygenHelp,
		func(_ context.Context, c *cli, args []string) int { return c.keygenCmd(args) }},
	{"receipt", "sign receipts of recorded verdicts into git notes; --public-key", receiptHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.receiptCmd(ctx, args) }},
	{"verify-receipt", "check commits' receipts against the allowed signers", verifyReceiptHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.verifyReceiptCmd(ctx, args) }},
	{"verdict", "verdict verify FILE: check a signed verdict file offline against the allowed signers", verdictHelp,
		func(_ context.Context, c *cli, args []string) int { return c.verdictCmd(args) }},
	{"export", "send recorded tasks and judgements to an OpenTelemetry collector", exportHelp,
		func(ctx context.Context, c *cli, args []string) int { return c.exportCmd(ctx, args) }},
	// The Stop hook's openai calls (internal/llm/provider.Delegate).
	{provider.DelegateCommand, "internal: one openai judge call for the Stop hook", providerCallHelp,
		func(ctx context.Context, c *cli, _ []string) int { return c.providerCallCmd(ctx) }},
	{"version", "print the version", versionHelp,
		func(_ context.Context, c *cli, args []string) int { return c.versionCmd(args) }},
	// help reads this table, so run dispatches it (a reference from here
	// would be an initialisation cycle).
	{"help", "print this help, or a command's: help COMMAND", helpHelp, nil},
}

// suggestCommand is safetext's " (did you mean "review"?)" for a
// misspelled command, the same nearest-word rule as for settings keys and
// flags; "" when no command is near. The internal delegate is not offered.
func suggestCommand(typed string) string {
	var names []string
	for _, cmd := range commands {
		if cmd.name != provider.DelegateCommand {
			names = append(names, cmd.name)
		}
	}
	return safetext.DidYouMean(typed, names, strconv.Quote)
}

func lookup(name string) (command, bool) {
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd, true
		}
	}
	return command{}, false
}

// wantsHelp reports a -h, -help or --help among a command's arguments
// before any "--", which every command answers with its own usage.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}
