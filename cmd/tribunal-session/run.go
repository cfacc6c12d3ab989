package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/session/detached"
)

type runFlags struct {
	rubric        string
	maxIterations int
	budget        float64
	json          bool
	detach        bool
	taskFile      string
	sessionID     string
	inPlace       bool
	dryRun        bool
	candidates    int
	quorum        rules.Policy
	profile       string
	taskID        string // set by --detach for its child
	runDir        string // likewise
}

func (c *cli) runCmd(ctx context.Context, args []string) int {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.rubric, "rubric", "", "rubric id")
	fs.IntVar(&f.maxIterations, "max-iterations", 0, "maximum actor passes")
	fs.Float64Var(&f.budget, "budget-usd", 0, "cost cap in USD")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.BoolVar(&f.detach, "detach", false, "run in the background")
	fs.StringVar(&f.taskFile, "task-file", "", "read the task from FILE (- for stdin)")
	fs.StringVar(&f.sessionID, "session-id", "", "host session id for event envelopes")
	fs.BoolVar(&f.inPlace, "in-place", false, "let the actor edit the current working tree directly (no task worktree)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the panel, the calls and a cost estimate; run nothing")
	fs.IntVar(&f.candidates, "candidates", 0, "run N candidates in parallel and apply the one the judges prefer")
	quorumFlag(fs, &f.quorum)
	profile := profileFlag(fs)
	fs.StringVar(&f.taskID, "task-id", "", "")
	fs.StringVar(&f.runDir, "run-dir", "", "")
	taskArgs, err := parseRunArgs(fs, args)
	if err != nil {
		return c.flagError("run", fs, err,
			`a task with dashes in it goes after "--": tribunal-session run [flags] -- <task>`)
	}
	f.profile = *profile
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["max-iterations"] && f.maxIterations < 1 {
		c.errorf("run: --max-iterations must be at least 1 (got %d)", f.maxIterations)
		return exitUsage
	}
	if set["budget-usd"] && !(f.budget > 0 && f.budget < math.Inf(1)) {
		c.errorf("run: --budget-usd must be a number of dollars above 0 (got %s)", rules.Num(f.budget))
		c.hint("raise the cap for one run with --budget-usd 20; tribunal.session.budget_usd sets it for every run")
		return exitUsage
	}
	if code := c.checkCandidates(f, set["candidates"]); code != 0 {
		return code
	}
	if set["rubric"] && strings.TrimSpace(f.rubric) == "" {
		c.errorf("run: --rubric needs a rubric id")
		c.hint("tribunal-session rubrics lists the rubric ids")
		return exitUsage
	}
	if f.taskFile != "" && len(taskArgs) > 0 {
		c.errorf("run: the task comes from --task-file; unexpected argument %q", taskArgs[0])
		return exitUsage
	}
	task, code := c.runTaskText(&f, taskArgs)
	if code != 0 {
		return code
	}
	if f.sessionID == "" {
		f.sessionID = firstNonEmpty(c.getenv("CLAUDE_SESSION_ID"), c.getenv("CLAUDE_CODE_SESSION_ID"))
	}
	if f.dryRun {
		return c.dryRun(ctx, f, task)
	}
	if f.detach {
		return c.detach(ctx, f, task)
	}
	return c.runTask(ctx, f, task)
}

// runTaskText reads the task (--task-file, the arguments or stdin) and
// takes the --rubric=ID and --profile=NAME tokens out of it into f, which
// /tribunal cannot pass as flags; code is non-zero when the error was
// printed.
func (c *cli) runTaskText(f *runFlags, taskArgs []string) (task string, code int) {
	task, err := c.readTask(f.taskFile, taskArgs)
	if err != nil {
		c.errorf("run: %v", err)
		return "", exitUsage
	}
	task, inline, err := extractRubric(task)
	if err != nil {
		c.errorf("run: %v", err)
		c.hint("tribunal-session rubrics lists the rubric ids")
		return "", exitUsage
	}
	if f.rubric == "" {
		f.rubric = inline
	}
	task, inline, err = extractToken(task, "profile")
	if err != nil {
		c.errorf("run: %v", err)
		return "", exitUsage
	}
	if f.profile == "" {
		f.profile = inline
	}
	if !c.checkProfile("run", f.profile) {
		return "", exitUsage
	}
	if strings.TrimSpace(task) == "" {
		c.errorf("run: the task is empty")
		c.hint(`say what to do, e.g. tribunal-session run "add a --verbose flag to cmd/foo"`)
		return "", exitUsage
	}
	return task, 0
}

// checkCandidates refuses a --candidates value out of range, or one that
// cannot work with --in-place, before anything runs.
func (c *cli) checkCandidates(f runFlags, set bool) int {
	if !set {
		return 0
	}
	if err := session.CandidatesError(f.candidates); err != nil {
		c.errorf("run: %v", err)
		c.hint("each candidate is a whole run (actor, jury, worktree): --candidates 3 costs about three runs; at most %d", session.MaxCandidates)
		return exitUsage
	}
	if f.inPlace {
		c.errorf("run: --candidates runs each candidate in its own worktree; it cannot be used with --in-place")
		c.hint("drop --in-place, or --candidates")
		return exitUsage
	}
	return 0
}

// readTask takes the task from --task-file, else the arguments, else
// stdin when it is not a terminal.
func (c *cli) readTask(file string, args []string) (string, error) {
	switch {
	case file == "-":
		data, err := io.ReadAll(io.LimitReader(c.stdin, 1<<20))
		return strings.TrimSpace(string(data)), err
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("cannot read the task file: %w", err)
		}
		return strings.TrimSpace(string(data)), nil
	case len(args) > 0:
		return strings.TrimSpace(strings.Join(args, " ")), nil
	}
	return "", nil
}

// parseRunArgs parses run's flags wherever they stand, so that
// 'run "x" --json' prints JSON rather than running the task "x --json". An
// unknown flag is an error, never task text; "--" ends the flags.
func parseRunArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// flag stops at "--" and drops it: everything after it is task.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, nil
}

// extractRubric removes the first standalone --rubric=<id> token, in any
// position, from the task text (spec §7.1) and returns the id. A
// --rubric= with no id is an error rather than task text.
func extractRubric(task string) (string, string, error) { return extractToken(task, "rubric") }

// extractToken removes the first standalone --NAME=<value> token from the
// task text and returns the value: /tribunal hands the program one string,
// so its options (--rubric=ID, --profile=NAME) travel inside the task.
func extractToken(task, name string) (string, string, error) {
	if regexp.MustCompile(`(^|\s)--` + name + `=(\s|$)`).MatchString(task) {
		return "", "", fmt.Errorf("--%s= in the task names no %s", name, name)
	}
	loc := regexp.MustCompile(`(^|\s)--` + name + `=(\S+)(\s|$)`).FindStringSubmatchIndex(task)
	if loc == nil {
		return task, "", nil
	}
	id := task[loc[4]:loc[5]]
	rest := task[:loc[0]] + " " + task[loc[1]:]
	return strings.TrimSpace(strings.Join(strings.Fields(rest), " ")), id, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// prepared is what both a foreground and a detached run need before the
// loop starts.
type prepared struct {
	opts session.Options
	deps session.Deps
}

// prepare checks a run exactly as the loop will before its first model
// call — the claude executable, then (with validate) the repository,
// settings, rubric and panel, and whether a task worktree can be made — and
// returns what the loop needs. session.Validate is the loop's own setup
// check, so `run --detach` fails with exit 2 on exactly the inputs `run`
// refuses, before anything starts; a foreground run leaves that check to
// session.Run, which also records the refusal as an aborted task. A
// non-zero code means the error and hint were printed.
func (c *cli) prepare(ctx context.Context, f runFlags, task string, validate bool) (prepared, int) {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return prepared{}, exitUsage
	}
	environ := os.Environ()
	runner, err := c.claudeRunner(dir, environ)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return prepared{}, exitUsage
	}
	p := prepared{
		opts: session.Options{
			Task: task, RubricID: f.rubric, Profile: f.profile, MaxIterations: f.maxIterations, BudgetUSD: f.budget,
			Dir: dir, SessionID: f.sessionID, TaskID: f.taskID, InPlace: f.inPlace,
			Candidates: f.candidates, GatePolicy: f.quorum,
		},
		deps: c.sessionDeps(runner, environ),
	}
	if !validate {
		return p, 0
	}
	// Quietly: the run itself prints the configuration's warnings once.
	quiet := p.deps
	quiet.Warn, quiet.Note, quiet.Relay, quiet.Progress = nil, nil, nil, nil
	if err := session.Validate(ctx, p.opts, quiet); err != nil {
		c.configError(err)
		return prepared{}, exitUsage
	}
	return p, 0
}

// sessionDeps is the environment a task or a review runs in: this
// binary's sinks and settings, its claude runner and its git.
func (c *cli) sessionDeps(runner claude.Runner, environ []string) session.Deps {
	return session.Deps{
		Env: env.Env{
			Schemas:  c.schemas(),
			Getenv:   c.getenv,
			Home:     c.home(),
			Progress: c.progress,
			Warn:     c.warning,
			Note:     c.progress,
			Relay:    c.relay,
			Claude:   runner,
			Git:      c.git(environ),
			Environ:  environ,
			Redact:   c.red,
		},
		PID: os.Getpid(),
	}
}

// git is the runner of every git child of this binary.
func (c *cli) git(environ []string) projectkey.GitRunner {
	return projectkey.ExecGit("git", environ)
}

// configError prints a setup failure and its hint.
func (c *cli) configError(err error) {
	var cfgErr *judging.ConfigError
	if errors.As(err, &cfgErr) {
		for _, e := range config.Errors(cfgErr.Err) {
			c.errorf("%v", e)
		}
		if cfgErr.Hint != "" {
			c.hint("%s", cfgErr.Hint)
		} else {
			c.hint("%s", setupHint(cfgErr, "nothing ran; fix the setting or rubric named above (see docs/configuration.md)"))
		}
		return
	}
	c.errorf("%v", err)
}

// runTask runs the loop in the foreground and maps its outcome to an exit
// status.
func (c *cli) runTask(ctx context.Context, f runFlags, task string) int {
	p, code := c.prepare(ctx, f, task, false)
	if code != 0 {
		if f.runDir != "" {
			detached.Run{Dir: f.runDir}.WriteExit(code)
		}
		return code
	}
	rep, runErr := session.Run(ctx, p.opts, p.deps)
	code = c.report(rep, runErr, f.json)
	// After the verdict is recorded and reported, before a detached run's
	// exit is written (so that `wait` relays a warning): a collector that
	// is down costs at most otelexport.LiveTimeout and that one warning.
	c.exportTask(ctx, rep.TaskID)
	if f.runDir != "" {
		detached.Run{Dir: f.runDir}.WriteExit(code)
	}
	return code
}

// report prints the outcome and decides the exit status.
func (c *cli) report(rep *session.Report, runErr error, asJSON bool) int {
	var cfgErr *judging.ConfigError
	if errors.As(runErr, &cfgErr) {
		c.configError(cfgErr)
		if asJSON {
			c.printJSON(rep)
		}
		return exitUsage
	}
	if asJSON {
		c.printJSON(rep)
	} else {
		shown := *rep
		c.familyNoteOnce(&shown)
		c.markdown(session.Summary(&shown))
	}
	switch {
	case runErr != nil:
		c.errorf("task %s aborted: %v", rep.TaskID, runErr)
		if errors.Is(runErr, session.ErrBudget) {
			c.hint("run it again with a higher --budget-usd (or raise tribunal.session.budget_usd), or with fewer judges or iterations")
		}
		if errors.Is(runErr, session.ErrNoVerdict) {
			c.hint("the judges never ran to a verdict (this is not a judgement of the change); check the errors above, then run the task again")
		}
		return exitAborted
	case rep.Outcome == session.Accepted:
		c.receiptNote(rep)
		return exitAccepted
	default:
		return exitNotAccepted
	}
}

func (c *cli) printJSON(v any) {
	enc := json.NewEncoder(c.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// claudeRunner locates claude: $TRIBUNAL_CLAUDE_BIN, else the user-level
// tribunal.claude.path, else claude on PATH. Repository settings are not
// consulted (the config package drops that key from repository layers).
func (c *cli) claudeRunner(dir string, environ []string) (claude.Runner, error) {
	path, _, err := c.locateClaude(dir)
	if err != nil {
		// The actor is the first call of a run, and calibrate and rejudge
		// have no actor: name the program, not a role.
		return nil, fmt.Errorf("cannot run claude: %w", err)
	}
	return claude.Exec{Path: path, Env: environ}, nil
}

// locateClaude finds claude as every command does (claude.Locate) and says
// where the path came from: TRIBUNAL_CLAUDE_BIN, tribunal.claude.path or
// PATH. On an error, path is the explicit path that is not an executable
// ("" when claude is not on PATH).
func (c *cli) locateClaude(dir string) (path, from string, err error) {
	from = "PATH"
	configured := func() string {
		root, err := projectkey.FindWorktreeRoot(dir)
		if err != nil {
			root = ""
		}
		cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: func(string) {}})
		if p := cfg.ClaudePath(); p != "" {
			from, path = "tribunal.claude.path", p
		}
		return path
	}
	if bin := c.getenv("TRIBUNAL_CLAUDE_BIN"); bin != "" {
		from, path = "TRIBUNAL_CLAUDE_BIN", bin
	}
	found, err := claude.Locate(c.getenv("TRIBUNAL_CLAUDE_BIN"), configured, c.getenv("PATH"))
	if err != nil {
		return path, from, err
	}
	return found, from, nil
}
