package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/output"
)

const calibrateHelp = `usage: tribunal-session calibrate --cases FILE [--stop] [--swap | --mutate] [--jobs N] [--rubric ID]
                                  [--holdout FRACTION] [--against REPORT.json] [--json]
                                  [--repeat K [--min-difference D]]
       tribunal-session calibrate --from-history --write-cases FILE

Judges every labelled case in FILE (JSON Lines: {"id", "task", "diff",
"label": "accept"|"reject", optional "notes", "files": {path: content}})
the way the product would — by default the /tribunal jury, meta-judge and
gate of this project's configuration; with --stop the Stop hook's advisory
judge — and reports agreement with the labels, Cohen's κ, catch rate,
false-intervention rate, the confusion matrix, per-judge figures, the
effective number of independent jurors, a threshold sweep, cost and time;
every rate with its 95% interval (Wilson; a seeded bootstrap for κ), and
two configurations ranked only when their intervals do not overlap.
--holdout FRACTION picks the sweep's threshold on the other cases and
measures it on that fraction of them (split by a hash of each case's id),
beside the in-sample figures. --against REPORT.json compares this run's
figures with an earlier run's (saved with --json, e.g. under another
configuration), ranking each only when the intervals do not overlap.
--repeat K judges every case K times (K rollouts; each cached on its own)
and reports the agreement's mean, 95% interval (Student's t) and
run-to-run noise (coefficient of variation). With --against, the two
runs' rollouts are paired (a rollout pairs only when every common case
was decided on both sides) and the verdict is: invalid below 3 paired
rollouts; too_noisy when the noise exceeds the difference asked for
(--min-difference D, default 0.05 of agreement); this_run_better or
earlier_run_better when the difference's interval excludes zero and it
reaches D; else no_difference. Save the earlier run with --repeat too.
--swap judges each case again with the diff's files in reverse order and
reports the flip rate. --mutate judges only the accepted cases and, for
each, its mutants — deterministic breakages of its diff (drop-hunk,
invert-condition, delete-test, off-by-one; docs/judges.md) — and reports
the share of mutants scored below their original per kind; a mutation
with nothing to break is skipped with its reason.
With severity.verify.enabled, the report also gives the false-intervention
and catch rates with and without the verification of blocking findings.
--jobs N judges N cases at once (results stay in file order). Decided
judgements are cached under $ONLOOKER_DIR, so an interrupted run resumes
without paying twice.

--from-history --write-cases FILE judges nothing: it writes to FILE (a new
file) the cases your own decisions label in this repository's history —
a task's change you applied and kept is an accept; one you discarded, or
applied and then undid in the working tree, a reject; a kept change one
of whose findings you dismissed, an accept — each naming its label's
source. Review and edit FILE, then run calibrate --cases FILE: the report
says how the judges agree with you. Nothing recorded is changed.

Exit status: 0 reported (or cases written); 2 usage error, unreadable file,
no usable case, a label other than accept/reject, a history with no
decision, with --mutate no accepted case or no mutation that applies, or a
configuration error; 3 interrupted
(the partial report is printed) or no case could be decided.
`

func (c *cli) calibrateCmd(ctx context.Context, args []string) int {
	opts, asJSON, code := c.calibrateFlags(args)
	if code >= 0 {
		return code
	}
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
	opts.Dir = dir
	if opts.FromHistory {
		return c.calibrateFromHistory(ctx, dir, opts.WriteCases)
	}
	environ := os.Environ()
	runner, err := c.judgesRunner(dir, environ, opts.RubricID)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	deps := calibrate.Deps{
		Env: env.Env{
			Schemas:  c.schemas(),
			Getenv:   c.getenv,
			Home:     c.home(),
			Progress: c.progress,
			Warn:     c.warning,
			Relay:    c.relay,
			Claude:   runner,
			Git:      projectkey.ExecGit("git", environ),
			Environ:  environ,
		},
	}
	bar := &output.Bar{W: c.stderr}
	if tty, _ := c.term(c.stderr); tty {
		deps.Bar = bar.Draw
	}
	rep, err := calibrate.Run(ctx, opts, deps)
	bar.End()
	c.sinceTune(ctx, dir, opts, rep)
	return c.calibrateReport(rep, err, asJSON)
}

// calibrateFlags parses calibrate's flags into its options (all but Dir)
// and --json; code >= 0 means the command is done (help printed or usage
// error), as with historyFlags.
func (c *cli) calibrateFlags(args []string) (opts calibrate.Options, asJSON bool, code int) {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.CasesPath, "cases", "", "")
	fs.BoolVar(&opts.Stop, "stop", false, "")
	fs.BoolVar(&opts.Swap, "swap", false, "")
	fs.BoolVar(&opts.Mutate, "mutate", false, "")
	fs.IntVar(&opts.Jobs, "jobs", 1, "")
	fs.StringVar(&opts.RubricID, "rubric", "", "")
	fs.BoolVar(&asJSON, "json", false, "")
	holdout := fs.String("holdout", "", "")
	fs.BoolVar(&opts.FromHistory, "from-history", false, "")
	fs.StringVar(&opts.WriteCases, "write-cases", "", "")
	fs.StringVar(&opts.Against, "against", "", "")
	fs.IntVar(&opts.Repeat, "repeat", 0, "")
	fs.Float64Var(&opts.MinDifference, "min-difference", 0, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(c.stderr, calibrateHelp)
			return opts, asJSON, 0
		}
		return opts, asJSON, c.flagError("calibrate", fs, err)
	}
	if code := c.fromHistoryFlags(fs, opts); code >= 0 {
		return opts, asJSON, code
	}
	switch {
	case fs.NArg() > 0:
		c.errorf("calibrate: unexpected argument %q", fs.Arg(0))
		c.hint("the cases file is given with --cases FILE")
		return opts, asJSON, exitUsage
	case opts.FromHistory:
		return opts, asJSON, -1
	case opts.CasesPath == "":
		c.errorf("calibrate: --cases FILE is required")
		c.hint("tribunal's repository ships two sets: testdata/calibration/cases.jsonl (the starter set) and testdata/calibration/quixbugs/cases.jsonl")
		return opts, asJSON, exitUsage
	case opts.Jobs < 1:
		c.errorf("calibrate: --jobs must be at least 1 (got %d)", opts.Jobs)
		return opts, asJSON, exitUsage
	case opts.Mutate && opts.Swap:
		c.errorf("calibrate: --mutate and --swap are separate checks; run them one at a time")
		return opts, asJSON, exitUsage
	case opts.Repeat < 0 || opts.Repeat > calibrate.MaxRepeat:
		c.errorf("calibrate: --repeat must be between 1 and %d (got %d)", calibrate.MaxRepeat, opts.Repeat)
		c.hint("--repeat 5 judges every case 5 times and reports the agreement's mean, 95%% interval and run-to-run noise")
		return opts, asJSON, exitUsage
	case opts.MinDifference < 0 || opts.MinDifference >= 1 || math.IsNaN(opts.MinDifference):
		c.errorf("calibrate: --min-difference must be a difference in agreement between 0 and 1 (got %v)", opts.MinDifference)
		return opts, asJSON, exitUsage
	case opts.MinDifference > 0 && (opts.Repeat == 0 || opts.Against == ""):
		c.errorf("calibrate: --min-difference is the difference --against asks for with --repeat; give both")
		return opts, asJSON, exitUsage
	case opts.Stop && opts.RubricID != "":
		c.errorf("calibrate: --rubric applies to the jury; the Stop hook's judge has no rubric")
		return opts, asJSON, exitUsage
	}
	if opts.Holdout, code = c.holdoutFlag(fs, *holdout); code >= 0 {
		return opts, asJSON, code
	}
	return opts, asJSON, -1
}

// holdoutFlag validates --holdout FRACTION, before anything is judged: a
// number strictly between 0 and 1. Unset is 0 (no held-out part).
func (c *cli) holdoutFlag(fs *flag.FlagSet, raw string) (float64, int) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "holdout" })
	if !set {
		return 0, -1
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || !(f > 0 && f < 1) {
		c.errorf("calibrate: --holdout must be a fraction between 0 and 1, both excluded (got %q)", raw)
		c.hint("--holdout 0.3 holds out about 30%% of the cases, chosen by a hash of their ids, to measure the threshold picked on the rest")
		return 0, exitUsage
	}
	return f, -1
}

// calibrateReport prints the report of calibrate.Run and decides the exit
// status. An interrupted run still prints its partial report; input and
// configuration errors print none.
func (c *cli) calibrateReport(rep *calibrate.Report, err error, asJSON bool) int {
	var inErr *calibrate.InputError
	var cfgErr *judging.ConfigError
	switch {
	case errors.As(err, &inErr) && errors.Is(err, calibrate.ErrNothingToMutate):
		c.errorf("calibrate: %v", inErr.Err)
		c.hint(`--mutate breaks cases labelled "accept" whose diffs change code; see docs/judges.md`)
		return exitUsage
	case errors.As(err, &inErr):
		c.errorf("calibrate: %v", inErr.Err)
		c.hint(`each line is {"id": "...", "task": "...", "diff": "<unified diff>", "label": "accept"|"reject"}; see docs/judges.md`)
		return exitUsage
	case errors.As(err, &cfgErr):
		c.errorf("%v", cfgErr.Err)
		c.hint("%s", setupHint(cfgErr, "nothing ran; fix the setting or rubric named above (see docs/configuration.md)"))
		return exitUsage
	case err != nil && !errors.Is(err, calibrate.ErrInterrupted):
		c.errorf("calibrate: %v", err)
		return exitAborted
	}
	if asJSON {
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
