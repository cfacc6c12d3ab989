package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/tune"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

const tuneHelp = `usage: tribunal-session tune (--cases FILE | --from-history) [--rubric ID]
                             [--population N] [--generations G] [--repeats K]
                             [--holdout FRACTION] [--budget-usd N] [--delta D]
                             [--gate delta|pareto] [--try FILE] [--write FILE]
                             [--dry-run] [--json]
       tribunal-session tune apply ID

Improves the judging surface — the rubric's criteria, their wording,
weights and floors, its score threshold — against labelled cases, and
ships a change only on paired held-out evidence (docs/tune.md).

Measure: the cases (calibrate's format; --from-history labels them by
your own decisions) are split by a hash of each id into a train part and
a held-out part (--holdout, default 0.5). The current surface is judged K
times on the train part (--repeats, default 3): agreement with the labels,
catch rate, false-intervention rate, and the run-to-run noise. tune
refuses, saying how many more labelled outcomes it needs, below
tune.min_cases (default 30), and when the noise is wider than --delta.
Propose: each of --generations G (default 2) a proposer seat (tune.model,
a model call isolated like a judge) reads only the train cases the best
surface so far gets wrong and proposes up to --population N (default 4)
bounded edits, each citing the failed cases it addresses; each candidate
is judged on the train part. --try FILE adds your own proposals first
({"proposals": [{"edits": [...], "cites": [...], "reason": "..."}]}).
Gate: the candidate best on train and the current surface are judged on
the held-out part, pair by pair on the same cases (an errored cell removes
its pair). --gate delta (default) ships when the paired agreement lift is
at least --delta (0.05) and its 95% interval excludes 0; --gate pareto
ships a candidate no worse on agreement, false-intervention rate and cost
per case, and significantly better on one.
The spend so far is printed as it goes; --budget-usd (default 5) stops
the run before a call once it is spent. --dry-run prints the plan and a
cost estimate from this project's recorded judgings, and judges nothing.

Every run is recorded (tune/<id>/ in the project's store, and events);
'view ID' shows its page. A shipped rubric is never put in place by tune:
--write FILE writes it and FILE.diff, and 'tune apply ID' puts it in this
repository's .claude/tribunal.json, recorded in the ledger.

Exit status: 0 ship (and --dry-run, apply); 10 hold: no candidate passed
the gate; 11 need-more-data: too few cases, too much noise, or an
interval too wide to decide; 12 invalid: fewer than 3 valid held-out
pairs, half or more of them lost to errors, or unpaired evidence;
2 usage or input error (nothing recorded); 3 interrupted or the budget
spent before the gate.
`

// Exit statuses of tune's outcomes (spec §12.1).
const (
	exitTuneHold         = 10
	exitTuneNeedMoreData = 11
	exitTuneInvalid      = 12
)

// tuneArgs is tune's command line.
type tuneArgs struct {
	opts        tune.Options
	cases       string
	fromHistory bool
	rubricID    string
	try         string
	write       string
	dryRun      bool
	asJSON      bool
}

func (c *cli) tuneCmd(ctx context.Context, args []string) int {
	if len(args) > 0 && args[0] == "apply" {
		return c.tuneApply(ctx, args[1:])
	}
	a, code := c.tuneFlags(args)
	if code >= 0 {
		return code
	}
	return c.tuneRun(ctx, a)
}

// tuneFlags parses tune's flags; code >= 0 means the command is done.
func (c *cli) tuneFlags(args []string) (a tuneArgs, code int) {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.cases, "cases", "", "")
	fs.BoolVar(&a.fromHistory, "from-history", false, "")
	fs.StringVar(&a.rubricID, "rubric", "", "")
	fs.IntVar(&a.opts.Population, "population", tune.DefaultPopulation, "")
	fs.IntVar(&a.opts.Generations, "generations", tune.DefaultGenerations, "")
	fs.IntVar(&a.opts.Repeats, "repeats", tune.DefaultRepeats, "")
	fs.StringVar(&a.opts.Gate, "gate", tune.GateDelta, "")
	fs.StringVar(&a.try, "try", "", "")
	fs.StringVar(&a.write, "write", "", "")
	fs.BoolVar(&a.dryRun, "dry-run", false, "")
	fs.BoolVar(&a.asJSON, "json", false, "")
	holdout := fs.String("holdout", "0.5", "")
	budget := fs.String("budget-usd", "5", "")
	delta := fs.String("delta", "0.05", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(c.stdout, tuneHelp)
			return a, 0
		}
		return a, c.flagError("tune", fs, err)
	}
	if msg, hint := tuneProblem(fs, a); msg != "" {
		c.errorf("tune: %s", msg)
		c.hint("%s", hint)
		return a, exitUsage
	}
	for _, n := range []struct {
		name, raw string
		dst       *float64
		ok        func(float64) bool
		want      string
	}{
		{"holdout", *holdout, &a.opts.Holdout, func(f float64) bool { return f > 0 && f < 1 }, "a fraction between 0 and 1, both excluded"},
		{"budget-usd", *budget, &a.opts.BudgetUSD, func(f float64) bool { return f > 0 }, "a number of dollars above 0"},
		{"delta", *delta, &a.opts.Delta, func(f float64) bool { return f > 0 && f < 1 }, "a lift in agreement between 0 and 1, both excluded"},
	} {
		f, err := strconv.ParseFloat(strings.TrimSpace(n.raw), 64)
		if err != nil || !n.ok(f) {
			c.errorf("tune: --%s must be %s (got %q)", n.name, n.want, n.raw)
			c.hint("tribunal-session tune -h")
			return a, exitUsage
		}
		*n.dst = f
	}
	return a, -1
}

// tuneProblem is what is wrong with the flags other than the numbers,
// and what to do about it; "" when nothing is.
func tuneProblem(set *flag.FlagSet, a tuneArgs) (msg, hint string) {
	switch {
	case set.NArg() > 0:
		return fmt.Sprintf("unexpected argument %q%s", set.Arg(0), safetext.DidYouMean(set.Arg(0), []string{"apply"}, strconv.Quote)), "the cases are given with --cases FILE or --from-history; 'tune apply ID' applies a shipped run"
	case (a.cases == "") == !a.fromHistory:
		return "give the labelled cases with exactly one of --cases FILE and --from-history",
			"tribunal's repository ships testdata/calibration/cases.jsonl and testdata/calibration/quixbugs/cases.jsonl; --from-history labels your own decisions"
	case a.opts.Gate != tune.GateDelta && a.opts.Gate != tune.GatePareto:
		return fmt.Sprintf("--gate is delta or pareto (got %q)", a.opts.Gate), "tribunal-session tune -h"
	case a.opts.Population < 1 || a.opts.Generations < 1 || a.opts.Repeats < 2:
		return "--population and --generations must be at least 1, --repeats at least 2 (the noise needs two rollouts)", "tribunal-session tune -h"
	}
	if a.write != "" {
		if _, err := os.Lstat(a.write); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("%s already exists; --write never overwrites a file", a.write), "give a new file name, or remove the old file first"
		}
	}
	return "", ""
}
