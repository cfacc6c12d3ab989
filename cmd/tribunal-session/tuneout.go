package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/tune"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/present/report"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// tuneRecord stores the run in the project's store; a run outside a
// repository has no project and is not recorded (a warning says so).
func (c *cli) tuneRecord(project store.Project, perr error, rec tune.Record) {
	if perr != nil {
		c.warnf("tune run not recorded: %v", perr)
		return
	}
	dir, err := rec.Save(project.Dir)
	if err != nil {
		c.warnf("%v", err)
		return
	}
	c.progressf("tune: recorded as %s (%s); 'tribunal-session view %s' shows its page", rec.ID, dir, rec.ID)
}

// tuneFinish prints the result, writes --write's files for a shipped
// run and returns the outcome's exit status.
func (c *cli) tuneFinish(a tuneArgs, rec tune.Record, runErr error) int {
	if a.asJSON {
		c.printJSON(rec)
	} else {
		io.WriteString(c.stdout, rec.Result.Text())
	}
	if runErr != nil {
		c.errorf("tune: %v", runErr)
		if errors.Is(runErr, tune.ErrBudget) {
			c.hint("raise --budget-usd, or lower --population, --generations or --repeats (--dry-run prints what a run would judge)")
		}
		return exitAborted
	}
	if rec.Outcome == tune.Ship {
		if a.write != "" {
			if err := tune.WriteRubric(a.write, tune.Surface{Raw: rec.Shipped}, rec.Diff); err != nil {
				c.errorf("tune: %v", err)
				return exitAborted
			}
			c.progressf("tune: wrote the shipped rubric to %s and its diff to %s.diff", a.write, a.write)
		}
		if !a.asJSON {
			io.WriteString(c.stdout, "\n"+rec.Diff)
			io.WriteString(c.stdout, "Apply it with: tribunal-session tune apply "+rec.ID+"\n")
		}
		return 0
	}
	switch rec.Outcome {
	case tune.Hold:
		return exitTuneHold
	case tune.NeedMoreData:
		return exitTuneNeedMoreData
	}
	return exitTuneInvalid
}

// tuneRunID is the tune run an id typed to 'view' names, when it names
// one (never "last", which stays the newest task or verdict).
func tuneRunID(projectDir, typed string) (string, bool) {
	ids := records.ListTunes(projectDir)
	if len(ids) == 0 || strings.EqualFold(strings.TrimSpace(typed), records.Last) {
		return "", false
	}
	slices.Reverse(ids)
	id, err := records.ResolveID(ids, typed, "tune run")
	return id, err == nil
}

// writeTunePage writes a tune run's page (report.Tune).
func (c *cli) writeTunePage(project store.Project, id, out string, now time.Time) (string, error) {
	rec, err := tune.ReadRecord(project.Dir, id)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := report.Tune(&buf, rec, now); err != nil {
		return "", err
	}
	path := out
	if path == "" {
		path = filepath.Join(viewDir(project), "tune-"+id+".html")
	}
	return path, writePage(path, buf.Bytes())
}

// sinceTune flags, after a calibrate run of the jury, a rubric that tune
// shipped and that the new cases say has regressed ("tuned on …;
// agreement since …", spec §14.7): a warning when it has, a note when
// it holds, nothing when tune did not put the rubric in place.
func (c *cli) sinceTune(ctx context.Context, dir string, opts calibrate.Options, rep *calibrate.Report) {
	if rep == nil || opts.Stop || rep.Mutation != nil {
		return
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		return
	}
	root, _ := projectkey.FindWorktreeRoot(dir)
	quiet := func(string) {}
	j, err := judging.Load(judging.Options{RubricID: opts.RubricID, WorktreeRoot: root}, env.Env{Getenv: c.getenv, Home: c.home(), Warn: quiet, Relay: quiet, Schemas: c.schemas()})
	if err != nil || j.Rubric() == nil {
		return
	}
	s, ok := tune.SinceApplied(project.Dir, j.Rubric().Raw, rep)
	switch {
	case !ok:
	case s.Regressed:
		c.warning(s.Text())
	default:
		c.progress(s.Text())
	}
}

// liveLine is tune's progress on a terminal: the live state (the spend
// case by case) redrawn on one line, which a step's line or a warning
// first clears.
func (c *cli) liveLine() (bar, progress, warn func(string)) {
	b := &output.Bar{W: c.stderr}
	progress = func(s string) { b.Clear(); c.progress(s) }
	warn = func(s string) { b.Clear(); c.warning(s) }
	return b.Draw, progress, warn
}
