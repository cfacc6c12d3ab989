package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Exit statuses of the history commands beyond the shared ones.
const (
	// exitReplayDiffers: replay found an iteration the current rules
	// decide differently.
	exitReplayDiffers = 1
	// exitIncomplete: show or replay printed what it could, but a recorded
	// file is missing or corrupt (or an iteration could not be replayed).
	exitIncomplete = 3
)

const (
	logHelp = `usage: tribunal-session log [--limit N] [--since WHEN] [--outcome LIST] [--format auto|table|md] [--json] [--costs]

This project's recent /tribunal tasks and advisory (Stop-hook) verdicts,
newest first: time, kind, outcome, final score, iterations, cost, id and
summary. On a terminal the columns are aligned and each id is cut to the
shortest prefix that names it alone (show, view, wait and cancel take it);
elsewhere the list is a Markdown table.

  --limit N         at most N records (default 20; 0 lists everything)
  --since WHEN      only records from WHEN on: a duration back from now
                    (90m, 36h, 7d) or a date (2026-05-24, RFC 3339 time)
  --outcome LIST    only these outcomes, separated by commas: accepted,
                    not-accepted (a task whose gate never passed; also
                    "exhausted"), aborted, rejected (an advisory verdict),
                    failed (tasks not accepted or aborted, and advisory
                    judgements with no verdict), cancelled, incomplete
  --format F        auto (table on a terminal, else md), table or md
  --json            {entries, total, problems}; total counts the records
                    the filters keep, before --limit
  --costs           instead of the records, their cost per UTC day and
                    kind (task, review, advisory), with each day's total:
                    every record the filters keep (--json: cost_totals)

Exit status: 0 (unreadable records are reported on stderr and listed with
what could be read); 2 usage error or not inside a git repository.
`
	showHelp = `usage: tribunal-session show TASK_ID|SESSION_ID|last [--json]
       tribunal-session show TASK_ID|last --diff [--iteration N] [--previous]

Everything recorded about one task (each iteration's actor output, files
changed, judges with scores, criterion scores and feedback, consensus,
dissent, meta-judge notes, gate reason and failed criterion) or about one
session's advisory verdict. Any unambiguous prefix of an id works (log
prints the shortest); "last" is the newest record.

--diff prints the stored unified diff of an iteration (default: the last)
against the task's starting snapshot; with --previous, that iteration's own
change since the iteration before it. An empty diff prints nothing on
stdout and says so on stderr.

Exit status: 0 shown; 3 shown, but a recorded file is missing or corrupt
(each is named on stderr); 2 usage error, unknown or ambiguous id, or not
inside a git repository.
`
	replayHelp = `usage: tribunal-session replay TASK_ID [--json]

Recomputes every iteration's aggregate, disagreement and gate from the
recorded artifacts with the current rules (the code behind
'tribunal-session decide') and the task's own parameters, and prints one
line per iteration: "same", or what changed.

Exit status: 0 every replayed iteration is the same; 1 at least one
differs; 3 none differs, but an artifact is missing or corrupt so the
replay is incomplete; 2 usage error, unknown task, or not inside a git
repository.
`
)

// parseInterleaved parses flags that may come before or after the
// positional arguments ("show ID --json" as well as "show --json ID").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// historyFlags parses a history command's flags; a nil FlagSet result with
// code >= 0 means the command is done (help printed or usage error).
func (c *cli) historyFlags(name, help string, args []string, setup func(fs *flag.FlagSet)) ([]string, int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if setup != nil {
		setup(fs)
	}
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, help)
		return nil, 0
	}
	if err != nil {
		return nil, c.flagError(name, fs, err)
	}
	return pos, -1
}

func (c *cli) reportProblems(ps []records.Problem) {
	for _, p := range ps {
		c.errorf("%s", p.Error())
	}
}

func problemStrings(ps []records.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return out
}

func (c *cli) logCmd(ctx context.Context, args []string) int {
	var limit int
	var asJSON, costs bool
	var format, since, outcomes string
	pos, code := c.historyFlags("log", logHelp, args, func(fs *flag.FlagSet) {
		fs.IntVar(&limit, "limit", 20, "")
		fs.BoolVar(&asJSON, "json", false, "")
		fs.BoolVar(&costs, "costs", false, "")
		fs.StringVar(&format, "format", "auto", "")
		fs.StringVar(&since, "since", "", "")
		fs.StringVar(&outcomes, "outcome", "", "")
	})
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		c.errorf("log takes no arguments, got %q", pos[0])
		c.hint("tribunal-session show %s", pos[0])
		return exitUsage
	}
	if limit < 0 {
		c.errorf("log: --limit must be 0 (all) or more, got %d", limit)
		return exitUsage
	}
	opts := history.LogOptions{Limit: limit}
	if since != "" {
		t, err := history.ParseSince(since, time.Now())
		if err != nil {
			c.errorf("log: --since %q: %v", since, err)
			c.hint("give a duration (90m, 36h, 7d) or a date (2026-05-24, 2026-05-24T10:00:00Z)")
			return exitUsage
		}
		opts.Since = t
	}
	if outcomes != "" {
		list, err := history.ParseOutcomes(outcomes)
		if err != nil {
			c.errorf("log: --outcome %q: %v", outcomes, err)
			c.hint("outcomes: %s (several separated by commas)", strings.Join(history.Outcomes, ", "))
			return exitUsage
		}
		opts.Outcomes = list
	}
	tty, width := c.term(c.stdout)
	format, ok := logFormat(format, tty)
	if !ok {
		c.errorf("log: --format %q: must be auto, table or md", format)
		return exitUsage
	}
	if !tty {
		width = 0
	}
	h, found := c.locate(ctx, "log", hintHistory)
	project, logPath := h.project, h.logPath
	if !found {
		return exitUsage
	}
	if costs {
		return c.logCosts(project.Dir, logPath, opts, asJSON)
	}
	res := history.Log(project.Dir, logPath, opts)
	for _, t := range c.worktrees(project).KeptTasks() {
		res.Kept = append(res.Kept, t.ID)
	}
	c.reportProblems(res.Problems)
	switch {
	case asJSON:
		c.printLogJSON(res)
	case format == "table":
		fmt.Fprint(c.stdout, history.RenderLogTable(res, width))
	default:
		fmt.Fprint(c.stdout, history.RenderLog(res))
	}
	return 0
}

// printLogJSON is log --json.
func (c *cli) printLogJSON(res history.LogResult) {
	entries := res.Entries
	if entries == nil {
		entries = []history.Entry{}
	}
	c.printJSON(struct {
		Entries  []history.Entry `json:"entries"`
		Total    int             `json:"total"`
		Problems []string        `json:"problems"`
	}{entries, res.Total, problemStrings(res.Problems)})
}

// logCosts is log --costs: the cost per UTC day and kind of every record
// the filters keep (--limit does not apply).
func (c *cli) logCosts(projectDir, logPath string, opts history.LogOptions, asJSON bool) int {
	opts.Limit = 0
	res := history.Log(projectDir, logPath, opts)
	c.reportProblems(res.Problems)
	totals := history.CostTotals(res.Entries)
	if asJSON {
		if totals == nil {
			totals = []history.CostTotal{}
		}
		c.printJSON(struct {
			Totals   []history.CostTotal `json:"cost_totals"`
			Problems []string            `json:"problems"`
		}{totals, problemStrings(res.Problems)})
		return 0
	}
	fmt.Fprint(c.stdout, history.RenderCostTotals(totals))
	return 0
}

// logFormat resolves --format: auto is the aligned table on a terminal
// and Markdown elsewhere (a pipe, a file, Claude Code's Bash tool).
func logFormat(flag string, tty bool) (string, bool) {
	switch flag {
	case "auto":
		if tty {
			return "table", true
		}
		return "md", true
	case "table", "md":
		return flag, true
	}
	return flag, false
}

func (c *cli) showCmd(ctx context.Context, args []string) int {
	var asJSON bool
	var diff, previous bool
	var iteration int
	pos, code := c.historyFlags("show", showHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "")
		fs.BoolVar(&diff, "diff", false, "")
		fs.BoolVar(&previous, "previous", false, "")
		fs.IntVar(&iteration, "iteration", 0, "")
	})
	if code >= 0 {
		return code
	}
	if (previous || iteration != 0) && !diff {
		c.errorf("show: --iteration and --previous go with --diff")
		return exitUsage
	}
	if iteration < 0 {
		c.errorf("show: --iteration must be at least 1 (got %d)", iteration)
		return exitUsage
	}
	if len(pos) != 1 {
		c.errorf("show takes exactly one id (a task id or a session id), got %d", len(pos))
		c.hint("tribunal-session log lists the ids")
		return exitUsage
	}
	h, ok := c.locate(ctx, "show", hintHistory)
	if !ok {
		return exitUsage
	}
	project, logPath := h.project, h.logPath
	ref, ok := resolveOne(c, "show", pos[0], h.record, hintIDs)
	if !ok {
		return exitUsage
	}
	if ref.Kind == history.KindAdvisory {
		if diff {
			return c.showAdvisoryDiff(project.Dir, logPath, ref.StopPath, iteration, previous)
		}
		return c.showAdvisory(project.Dir, logPath, ref.StopPath, asJSON)
	}
	if diff {
		patch, err := records.IterationDiff(project.Dir, ref.TaskID, iteration, previous)
		if err != nil {
			c.errorf("show: %v", err)
			return exitUsage
		}
		if patch == "" {
			// An empty stdout alone reads as "nothing recorded".
			c.progress(emptyDiffNote(ref.TaskID, iteration, previous))
			return 0
		}
		// Repository text: keep the diff's lines, drop terminal controls.
		fmt.Fprint(c.stdout, safetext.Block(patch))
		return 0
	}
	return c.showTask(project.Dir, logPath, ref.TaskID, asJSON)
}

// showAdvisory prints one session's advisory verdict, from its stop file
// or judgement record at path.
func (c *cli) showAdvisory(projectDir, logPath, path string, asJSON bool) int {
	v, err := history.ShowAdvisory(projectDir, logPath, path)
	if err != nil {
		c.errorf("%v", err)
		return exitIncomplete
	}
	c.reportProblems(v.Problems)
	if asJSON {
		c.printJSON(struct {
			Kind     string                `json:"kind"`
			Advisory *history.AdvisoryView `json:"advisory"`
			Problems []string              `json:"problems"`
		}{history.KindAdvisory, v, problemStrings(v.Problems)})
	} else {
		c.markdown(history.RenderAdvisory(v, time.Now()))
	}
	return exitStatus(len(v.Problems) > 0)
}

// showTask prints everything recorded about one task, with the effective
// number of independent jurors over the project's history.
func (c *cli) showTask(projectDir, logPath, taskID string, asJSON bool) int {
	v := history.ShowTask(projectDir, logPath, taskID)
	v.Jurors = history.ProjectJurors(projectDir, v)
	c.reportProblems(v.Problems)
	if v.Jurors != nil && v.Jurors.Warning != "" {
		c.warning(v.Jurors.Warning)
	}
	if asJSON {
		c.printJSON(struct {
			Kind     string            `json:"kind"`
			Task     *history.TaskView `json:"task"`
			Problems []string          `json:"problems"`
		}{v.Kind(), v, problemStrings(v.Problems)})
	} else {
		c.markdown(history.RenderTask(v))
	}
	return exitStatus(len(v.Problems) > 0)
}

func exitStatus(incomplete bool) int {
	if incomplete {
		return exitIncomplete
	}
	return 0
}

func (c *cli) replayCmd(ctx context.Context, args []string) int {
	var asJSON bool
	pos, code := c.historyFlags("replay", replayHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "")
	})
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		c.errorf("replay takes exactly one task id, got %d arguments", len(pos))
		c.hint("tribunal-session log lists the task ids")
		return exitUsage
	}
	h, ok := c.locate(ctx, "replay", hintHistory)
	if !ok {
		return exitUsage
	}
	project := h.project
	// "last" is the newest task: an advisory verdict has no gates to replay.
	ref, ok := resolveOne(c, "replay", pos[0], func(id string) (history.Ref, error) {
		return history.ResolveTask(project.Dir, id)
	}, hintTaskIDs)
	if !ok {
		return exitUsage
	}
	if ref.Kind != history.KindTask {
		c.errorf("replay: %q is an advisory verdict, not a task; only /tribunal tasks have gates to replay", pos[0])
		c.hint("tribunal-session show %s", pos[0])
		return exitUsage
	}
	res := history.Replay(project.Dir, ref.TaskID)
	c.reportProblems(res.Problems)
	if asJSON {
		c.printJSON(struct {
			*history.ReplayResult
			Differs  bool     `json:"differs"`
			Problems []string `json:"problems"`
		}{res, res.Differs(), problemStrings(res.Problems)})
	} else {
		c.markdown(history.RenderReplay(res))
	}
	switch {
	case res.Differs():
		return exitReplayDiffers
	case !res.Complete():
		return exitIncomplete
	}
	return 0
}
