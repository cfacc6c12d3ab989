package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/tune"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// tuneRun wires a tune run: cases, the jury of the current surface, the
// scorer and the proposer seat, then records and prints the result.
func (c *cli) tuneRun(ctx context.Context, a tuneArgs) int {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
	environ := os.Environ()
	root, _ := projectkey.FindWorktreeRoot(dir)
	cases, source, code := c.tuneCases(ctx, dir, root, a)
	if code >= 0 {
		return code
	}
	if a.try != "" {
		if a.opts.Seeds, code = c.tuneSeeds(a.try); code >= 0 {
			return code
		}
	}
	runner, err := c.judgesRunner(dir, environ, a.rubricID)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	e := env.Env{Getenv: c.getenv, Home: c.home(), Progress: c.progress, Warn: c.warning, Relay: c.relay,
		Claude: runner, Git: projectkey.ExecGit("git", environ), Environ: environ, Now: time.Now, Schemas: c.schemas()}
	jury, err := judging.Load(judging.Options{RubricID: a.rubricID, WorktreeRoot: root}, e)
	if err != nil {
		c.errorf("%v", err)
		c.hint("nothing ran; fix the setting or rubric named above (see README.md, Configuration)")
		return exitUsage
	}
	a.opts.Cases, a.opts.Base, a.opts.MinCases = cases, tune.Surface{Raw: jury.Rubric().Raw}, jury.Config().TuneMinCases()
	project, perr := c.projectDir(ctx, dir)
	if a.dryRun {
		plan := tune.PlanOf(a.opts)
		if perr == nil {
			plan.PerJudging, plan.History = history.CostPerRound(project.Dir)
		}
		io.WriteString(c.stdout, plan.Text())
		return 0
	}
	tmp, err := os.MkdirTemp("", "tribunal-tune-")
	if err != nil {
		c.errorf("tune: create a temporary directory: %v", err)
		return exitAborted
	}
	defer os.RemoveAll(tmp)
	propose, model := jury.SeatCall(jury.Config().TuneModel())
	c.progressf("tune: rubric %q, judged by %v; proposer %s", jury.RubricID(), jury.Seats(), model)
	a.opts.ID = c.tuneID()
	deps := tune.Deps{
		Scorer:   &tune.JuryScorer{Env: quietEnv(e), WorktreeRoot: root, TempDir: tmp},
		Proposer: tune.ModelProposer{Runner: propose, Model: model, Dir: tmp, Timeout: jury.Params().JudgeTimeout},
		Progress: c.progress, Warn: c.warning, Emit: c.tuneEmitter(project, perr, a.opts.ID, jury.Redactor()),
	}
	if tty, _ := c.term(c.stderr); tty {
		deps.Bar, deps.Progress, deps.Warn = c.liveLine()
	}
	res, err := tune.Run(ctx, a.opts, deps)
	var inErr *tune.InputError
	if errors.As(err, &inErr) {
		c.errorf("tune: %v", inErr.Err)
		c.hint("nothing was judged or recorded; an edit must leave a valid rubric (weights in [0,1] summing to 1, a threshold in [0,1])")
		return exitUsage
	}
	if res == nil {
		c.errorf("tune: %v", err)
		return exitAborted
	}
	rec := tune.NewRecord(a.opts.ID, time.Now().UTC().Format(time.RFC3339), jury.RubricID(), source, res)
	c.tuneRecord(project, perr, rec)
	return c.tuneFinish(a, rec, err)
}

// tuneCases reads the labelled cases: a file, or the user's decisions.
func (c *cli) tuneCases(ctx context.Context, dir, root string, a tuneArgs) ([]calibrate.Case, string, int) {
	if a.cases != "" {
		cases, err := calibrate.LoadCases(a.cases, c.warning)
		if err != nil {
			c.errorf("tune: %v", err)
			c.hint(`tune learns from labelled cases: each line is {"id", "task", "diff", "label": "accept"|"reject"} (calibrate's format); calibrate --from-history writes yours`)
			return nil, "", exitUsage
		}
		return cases, a.cases, -1
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		c.errorf("tune: %v", err)
		c.hint("run it inside the repository whose history you want to learn from")
		return nil, "", exitUsage
	}
	cases, _, err := calibrate.FromHistory(ctx, calibrate.HistoryInput{
		ProjectDir: project.Dir, WorkTree: root, SharedDismissals: filepath.Join(root, filepath.FromSlash(dismiss.SharedFile)),
		Git: c.git(os.Environ()), TempDir: os.TempDir(),
	})
	if err != nil {
		c.errorf("tune: %v", err)
		c.hint("apply or discard kept tasks, or dismiss findings you think wrong, so that your decisions label cases")
		return nil, "", exitUsage
	}
	return cases, "history", -1
}

// tuneSeeds reads --try FILE.
func (c *cli) tuneSeeds(path string) ([]tune.Proposal, int) {
	data, err := os.ReadFile(path)
	if err == nil {
		var props []tune.Proposal
		if props, err = tune.ParseProposals(data); err == nil {
			return props, -1
		}
	}
	c.errorf("tune: --try %s: %v", path, err)
	c.hint(`the file is {"proposals": [{"edits": [{"op": "add_criterion", "name": "...", "value": 0.2}], "cites": ["case id"], "reason": "..."}]}`)
	return nil, exitUsage
}

// tuneEmitter records tune's events in the run's own record directory
// (tune/<id>/events.jsonl), not in the shared Onlooker log: the canonical
// onlooker schema has no tune types, and every line tribunal writes there
// must validate against it (spec §10.4). An event that cannot be written
// is a warning, never the end of the run; with no project directory
// there is nowhere to record them, which tuneRecord says.
func (c *cli) tuneEmitter(project store.Project, perr error, id string, red *redact.Redactor) func(events.Payload) {
	if perr != nil {
		return func(events.Payload) {}
	}
	dir, _ := events.ResolvePaths(c.getenv, c.home())
	logPath := filepath.Join(records.TunePath(project.Dir, id), records.TuneEventsFile)
	em := &events.Emitter{Dir: dir, LogPath: logPath, Redact: red}
	return func(p events.Payload) {
		if err := em.Emit(p); err != nil {
			c.warnf("tune: event %s not recorded: %v", p.EventType(), err)
		}
	}
}

func (c *cli) tuneID() string {
	id, err := events.NewULID(rand.Reader, time.Now())
	if err != nil {
		return fmt.Sprintf("%d", time.Now().UnixNano())
	}
	return id
}

// quietEnv is e without progress lines: tune judges hundreds of cases,
// and says one line a step with the spend (as calibrate says one a
// case), not every case's jury round.
func quietEnv(e env.Env) env.Env {
	e.Progress = nil
	return e
}
