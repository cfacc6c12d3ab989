package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/history"
	"github.com/tribunal-cc/tribunal/internal/store"
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
	logHelp = `usage: tribunal-session log [--limit N] [--json]

This project's recent /tribunal tasks and advisory (Stop-hook) verdicts,
newest first: time, kind, outcome, final score, iterations, cost, id and
summary. --limit 0 lists everything (default 20). --json prints
{entries, total, problems}.

Exit status: 0 (unreadable records are reported on stderr and listed with
what could be read); 2 usage error or not inside a git repository.
`
	showHelp = `usage: tribunal-session show TASK_ID|SESSION_ID [--json]

Everything recorded about one task (each iteration's actor output, judges
with scores, criterion scores and feedback, consensus, dissent, meta-judge
notes, gate reason and failed criterion) or about one session's advisory
verdict. Any unambiguous prefix of an id works.

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
		c.errorf("%s: %v", name, err)
		fmt.Fprint(c.stderr, help)
		return nil, exitUsage
	}
	return pos, -1
}

// project finds the project directory and events log for the current
// directory's repository.
func (c *cli) project(ctx context.Context, name string) (store.Project, string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("%s: cannot determine the current directory: %v", name, err)
		return store.Project{}, "", false
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		c.errorf("%s: %v", name, err)
		c.hint("run it inside the git repository whose history you want")
		return store.Project{}, "", false
	}
	_, logPath := events.ResolvePaths(c.getenv, c.home())
	return project, logPath, true
}

func (c *cli) reportProblems(ps []history.Problem) {
	for _, p := range ps {
		c.errorf("%s", p.Error())
	}
}

func problemStrings(ps []history.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return out
}

func (c *cli) logCmd(ctx context.Context, args []string) int {
	var limit int
	var asJSON bool
	pos, code := c.historyFlags("log", logHelp, args, func(fs *flag.FlagSet) {
		fs.IntVar(&limit, "limit", 20, "")
		fs.BoolVar(&asJSON, "json", false, "")
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
	project, logPath, ok := c.project(ctx, "log")
	if !ok {
		return exitUsage
	}
	res := history.Log(project.Dir, logPath, limit)
	c.reportProblems(res.Problems)
	if asJSON {
		entries := res.Entries
		if entries == nil {
			entries = []history.Entry{}
		}
		c.printJSON(struct {
			Entries  []history.Entry `json:"entries"`
			Total    int             `json:"total"`
			Problems []string        `json:"problems"`
		}{entries, res.Total, problemStrings(res.Problems)})
		return 0
	}
	fmt.Fprint(c.stdout, history.RenderLog(res))
	return 0
}

func (c *cli) showCmd(ctx context.Context, args []string) int {
	var asJSON bool
	pos, code := c.historyFlags("show", showHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "")
	})
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		c.errorf("show takes exactly one id (a task id or a session id), got %d", len(pos))
		c.hint("tribunal-session log lists the ids")
		return exitUsage
	}
	project, logPath, ok := c.project(ctx, "show")
	if !ok {
		return exitUsage
	}
	ref, err := history.Resolve(project.Dir, pos[0])
	if err != nil {
		c.errorf("show: %v", err)
		c.hint("tribunal-session log lists this project's ids")
		return exitUsage
	}
	if ref.Kind == history.KindAdvisory {
		v, err := history.ShowAdvisory(project.Dir, logPath, ref.StopPath)
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
			fmt.Fprint(c.stdout, history.RenderAdvisory(v, time.Now()))
		}
		return exitStatus(len(v.Problems) > 0)
	}
	v := history.ShowTask(project.Dir, logPath, ref.TaskID)
	v.Jurors = history.ProjectJurors(project.Dir, v)
	c.reportProblems(v.Problems)
	if v.Jurors != nil && v.Jurors.Warning != "" {
		c.warn(v.Jurors.Warning)
	}
	if asJSON {
		c.printJSON(struct {
			Kind     string            `json:"kind"`
			Task     *history.TaskView `json:"task"`
			Problems []string          `json:"problems"`
		}{history.KindTask, v, problemStrings(v.Problems)})
	} else {
		fmt.Fprint(c.stdout, history.RenderTask(v))
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
	project, _, ok := c.project(ctx, "replay")
	if !ok {
		return exitUsage
	}
	ref, err := history.Resolve(project.Dir, pos[0])
	if err != nil {
		c.errorf("replay: %v", err)
		c.hint("tribunal-session log lists this project's task ids")
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
		fmt.Fprint(c.stdout, history.RenderReplay(res))
	}
	switch {
	case res.Differs():
		return exitReplayDiffers
	case !res.Complete():
		return exitIncomplete
	}
	return 0
}
