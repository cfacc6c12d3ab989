package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"

	"github.com/tribunal-cc/tribunal/internal/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judgestats"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/session"
)

const calibrateHelp = `usage: tribunal-session calibrate --cases FILE [--stop] [--swap] [--jobs N] [--rubric ID] [--json]

Judges every labelled case in FILE (JSON Lines: {"id", "task", "diff",
"label": "accept"|"reject", optional "notes", "files": {path: content}})
the way the product would — by default the /tribunal jury, meta-judge and
gate of this project's configuration; with --stop the Stop hook's advisory
judge — and reports agreement with the labels, Cohen's κ, catch rate,
false-intervention rate, the confusion matrix, per-judge figures, the
effective number of independent jurors, a threshold sweep, cost and time.
--swap judges each case again with the diff's files in reverse order and
reports the flip rate. --jobs N judges N cases at once (results stay in
file order). Decided judgements are cached under $ONLOOKER_DIR, so an
interrupted run resumes without paying twice.

Exit status: 0 reported; 2 usage error, unreadable file, no usable case, a
label other than accept/reject, or a configuration error; 3 interrupted
(the partial report is printed) or no case could be decided.
`

func (c *cli) calibrateCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cases := fs.String("cases", "", "")
	stop := fs.Bool("stop", false, "")
	swap := fs.Bool("swap", false, "")
	jobs := fs.Int("jobs", 1, "")
	rubric := fs.String("rubric", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(c.stderr, calibrateHelp)
			return 0
		}
		c.errorf("calibrate: %v", err)
		c.hint("tribunal-session calibrate --cases FILE [--stop] [--swap] [--jobs N] [--json]")
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		c.errorf("calibrate: unexpected argument %q", fs.Arg(0))
		c.hint("the cases file is given with --cases FILE")
		return exitUsage
	case *cases == "":
		c.errorf("calibrate: --cases FILE is required")
		c.hint("the starter set is testdata/calibration/cases.jsonl in tribunal's repository")
		return exitUsage
	case *jobs < 1:
		c.errorf("calibrate: --jobs must be at least 1 (got %d)", *jobs)
		return exitUsage
	case *stop && *rubric != "":
		c.errorf("calibrate: --rubric applies to the jury; the Stop hook's judge has no rubric")
		return exitUsage
	}
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
	environ := os.Environ()
	runner, err := c.claudeRunner(dir, environ)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	deps := calibrate.Deps{
		Getenv: c.getenv, Home: c.home(), Progress: c.progress, Warn: c.warning, Relay: c.relay,
		Claude: runner, Git: projectkey.ExecGit("git", environ), Environ: environ,
	}
	bar := &output.Bar{W: c.stderr}
	if tty, _ := c.term(c.stderr); tty {
		deps.Bar = bar.Draw
	}
	rep, err := calibrate.Run(ctx, calibrate.Options{
		CasesPath: *cases, Stop: *stop, Swap: *swap, Jobs: *jobs, RubricID: *rubric, Dir: dir,
	}, deps)
	bar.End()
	var inErr *calibrate.InputError
	var cfgErr *session.ConfigError
	switch {
	case errors.As(err, &inErr):
		c.errorf("calibrate: %v", inErr.Err)
		c.hint(`each line is {"id": "...", "task": "...", "diff": "<unified diff>", "label": "accept"|"reject"}; see README.md, "How good are the judges?"`)
		return exitUsage
	case errors.As(err, &cfgErr):
		c.errorf("%v", cfgErr.Err)
		c.hint("nothing ran; fix the setting or rubric named above (see README.md, Configuration)")
		return exitUsage
	case err != nil && !errors.Is(err, calibrate.ErrInterrupted):
		c.errorf("calibrate: %v", err)
		return exitAborted
	}
	if *asJSON {
		c.printJSON(rep)
	} else {
		io.WriteString(c.stdout, rep.Text())
	}
	if err != nil {
		c.errorf("calibrate: %v", err)
		return exitAborted
	}
	if rep.Decided == 0 {
		c.errorf("calibrate: no case could be decided: every judging failed")
		c.hint("the errors are listed above; check that claude runs (try 'claude -p hello') and the configured models exist")
		return exitAborted
	}
	if rep.Jurors != nil {
		if w := judgestats.JurorsWarning(*rep.Jurors); w != "" {
			c.warning(w)
		}
	}
	return 0
}
