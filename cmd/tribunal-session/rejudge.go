package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/rejudge"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// exitFlipped: rejudge found an iteration the current configuration
// decides differently.
const exitFlipped = 1

const rejudgeHelp = `usage: tribunal-session rejudge TASK_ID... | --since DUR [--rubric ID] [--json]

Shadow mode: runs the current judge configuration (models, rubric,
threshold, panel, prompts) over the recorded iterations of past tasks —
their stored diffs, task text and actor messages — and prints, per
iteration, the recorded and the new aggregate and gate decision, marking
flips. It never alters a recorded decision: each task's result is stored
beside it as rejudge-<id>.json and added to the ledger as a "rejudge"
entry. --since takes a Go duration or days ("36h", "7d"). A task recorded
before iterations' diffs were stored is named and skipped.

Exit status: 0 nothing flipped; 1 at least one gate decision flipped; 2
usage error, unknown id, configuration error, or not inside a git
repository; 3 interrupted, or nothing could be re-judged.
`

func (c *cli) rejudgeCmd(ctx context.Context, args []string) int {
	var since, rubric string
	var asJSON bool
	pos, code := c.historyFlags("rejudge", rejudgeHelp, args, func(fs *flag.FlagSet) {
		fs.StringVar(&since, "since", "", "")
		fs.StringVar(&rubric, "rubric", "", "")
		fs.BoolVar(&asJSON, "json", false, "")
	})
	if code >= 0 {
		return code
	}
	if (len(pos) == 0) == (since == "") {
		c.errorf("rejudge: give task ids or --since DUR (one of the two)")
		c.hint("tribunal-session rejudge 01J… or tribunal-session rejudge --since 7d")
		return exitUsage
	}
	var window time.Duration
	if since != "" {
		var err error
		if window, err = parseSince(since); err != nil {
			c.errorf("rejudge: --since %q: %v", since, err)
			c.hint(`a duration such as "90m", "36h" or "7d"`)
			return exitUsage
		}
	}
	h, ok := c.locate(ctx, "rejudge", "run it inside the git repository whose tasks you want to re-judge")
	if !ok {
		return exitUsage
	}
	ids, ok := c.rejudgeTaskIDs(h, pos, since, window)
	if !ok {
		return exitUsage
	}
	environ := os.Environ()
	git := c.git(environ)
	runner, err := c.judgesRunner(h.dir, environ, rubric)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	res, err := rejudge.Run(ctx, rejudge.Options{TaskIDs: ids, RubricID: rubric, WorktreeRoot: h.repo.WorktreeRoot, ProjectDir: h.project.Dir}, rejudge.Deps{
		Env: env.Env{
			Schemas:  c.schemas(),
			Getenv:   c.getenv,
			Home:     c.home(),
			Progress: c.progress,
			Warn:     c.warning,
			Relay:    c.relay,
			Claude:   runner,
			Git:      git,
			Environ:  environ,
		},
	})
	return c.rejudgeReport(res, err, asJSON)
}

// rejudgeTaskIDs resolves the tasks to re-judge: the ids (or prefixes)
// given, each of which must name a task, not an advisory verdict; or,
// with --since (its text since, parsed as window), the tasks started in
// that window. false means an error was reported.
func (c *cli) rejudgeTaskIDs(h here, pos []string, since string, window time.Duration) ([]string, bool) {
	projectDir := h.project.Dir
	var ids []string
	for _, p := range pos {
		ref, ok := resolveOne(c, "rejudge", p, h.task(" (a Stop-hook turn), which has no iterations to re-judge"), hintTaskIDs)
		if !ok {
			return nil, false
		}
		ids = append(ids, ref.TaskID)
	}
	if since != "" {
		var err error
		if ids, err = history.TasksSince(projectDir, time.Now().Add(-window)); err != nil {
			c.errorf("rejudge: %v", err)
			return nil, false
		}
		if len(ids) == 0 {
			c.errorf("rejudge: no task of this project started in the last %s", since)
			c.hint("tribunal-session log lists this project's tasks")
			return nil, false
		}
	}
	return ids, true
}

// rejudgeReport prints what rejudge.Run returned, as far as it got, and
// decides the exit status. A configuration error means nothing ran.
func (c *cli) rejudgeReport(res *rejudge.Result, err error, asJSON bool) int {
	var cfgErr *judging.ConfigError
	if errors.As(err, &cfgErr) {
		c.errorf("%v", cfgErr.Err)
		c.hint("%s", setupHint(cfgErr, "nothing ran; fix the setting or rubric named above (see docs/configuration.md)"))
		return exitUsage
	}
	if res != nil {
		if asJSON {
			c.printJSON(res)
		} else {
			io.WriteString(c.stdout, renderRejudge(res))
		}
	}
	switch {
	case err != nil:
		c.errorf("rejudge: %v", err)
		return exitAborted
	case res.Rejudged == 0:
		c.errorf("rejudge: nothing could be re-judged (see the reasons above)")
		return exitAborted
	case res.Flips > 0:
		return exitFlipped
	}
	return 0
}

// parseSince accepts a Go duration or a whole number of days ("7d").
func parseSince(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 {
			return 0, errors.New("not a positive number of days")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		err = errors.New("must be positive")
	}
	return d, err
}

func renderRejudge(res *rejudge.Result) string {
	var b strings.Builder
	b.WriteString("## tribunal rejudge (shadow mode: no recorded decision was changed)\n")
	for _, t := range res.Tasks {
		fmt.Fprintf(&b, "\n### task %s", t.TaskID)
		if t.Summary != "" {
			fmt.Fprintf(&b, " — %s", safetext.OneLine(t.Summary, 100+len("…")))
		}
		b.WriteString("\n")
		if t.Skipped != "" {
			fmt.Fprintf(&b, "Skipped: %s.\n", t.Skipped)
			continue
		}
		fmt.Fprintf(&b, "Judged with: rubric %q, %s\n\n", t.RubricID, t.Judge)
		for _, it := range t.Iterations {
			fmt.Fprintf(&b, "- iteration %d: %s\n", it.Number+1, rejudge.Line(it))
			if it.Note != "" {
				fmt.Fprintf(&b, "  note: %s\n", it.Note)
			}
		}
		if t.Stored != "" {
			fmt.Fprintf(&b, "\nStored: %s (ledger entry kind \"rejudge\")\n", t.Stored)
		}
	}
	cost := "unknown"
	if res.CostUSD != nil {
		cost = fmt.Sprintf("$%.4f", *res.CostUSD)
	}
	fmt.Fprintf(&b, "\n%d iteration(s) re-judged, %d flipped, %d without a usable new verdict; cost %s\n", res.Rejudged, res.Flips, res.Failed, cost)
	return b.String()
}
