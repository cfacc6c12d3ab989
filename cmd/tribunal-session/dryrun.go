package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/rules"
)

// plannedCall is one kind of call a run would make per iteration, with
// its estimate and where the estimate comes from.
type plannedCall struct {
	Role  string `json:"role"`
	Seat  string `json:"seat,omitempty"`
	Model string `json:"model"`
	Count int    `json:"count"`
	// MeanUSD is the estimate of one call: the recorded calls' mean cost
	// (Source "history", from Samples calls) or the price table's
	// (Source "price table"); nil when neither knows the model.
	MeanUSD *float64 `json:"mean_usd,omitempty"`
	Samples int      `json:"samples"`
	Source  string   `json:"source,omitempty"`
	// MaySkip: the meta-judge is not called when the jury is unanimous
	// and confident (meta_judge.skip_when_unanimous, spec §4.6); it is
	// counted all the same, since it may run.
	MaySkip bool `json:"may_skip,omitempty"`
}

// Where an estimate comes from.
const (
	sourceHistory = "history"
	sourceTable   = "price table"
)

// dryPlan is run --dry-run's output.
type dryPlan struct {
	Task          string        `json:"task"`
	Profile       string        `json:"profile"`
	RubricID      string        `json:"rubric_id"`
	MaxIterations int           `json:"max_iterations"`
	Calls         []plannedCall `json:"calls_per_iteration"`
	PerIteration  float64       `json:"estimate_per_iteration_usd"`
	AtMost        float64       `json:"estimate_at_most_usd"`
	// Unknown counts the calls per iteration with no recorded cost and
	// no price to go by.
	Unknown int `json:"calls_without_price"`
	// Candidates is run --candidates N: N such runs, and the pairwise
	// judge's calls on top.
	Candidates int `json:"candidates,omitempty"`
}

// dryRun prints what run would do — the panel, the calls of an iteration
// and at most, and a cost estimate from the mean recorded cost of calls of
// the same role and model in this project's newest tasks — without calling
// a model or recording anything.
func (c *cli) dryRun(ctx context.Context, f runFlags, task string) int {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("run: cannot determine the current directory: %v", err)
		return exitUsage
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("run: %q is not inside a git repository", dir)
		return exitUsage
	}
	j, err := judging.Load(judging.Options{RubricID: f.rubric, Profile: f.profile, WorktreeRoot: root}, env.Env{Getenv: c.getenv, Home: c.home(), Warn: c.warning, Schemas: c.schemas()})
	if err != nil {
		c.configError(err)
		return exitUsage
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		c.errorf("run: %v", err)
		return exitUsage
	}
	p := j.Params()
	plan := dryPlan{Task: task, Profile: j.Config().Profile(), RubricID: j.RubricID(), MaxIterations: p.MaxIterations}
	if f.maxIterations > 0 {
		plan.MaxIterations = f.maxIterations
	}
	costs := history.CallCosts(project.Dir, history.MaxCostTasks)
	add := func(role, seat, model string, n int) {
		pc := plannedCall{Role: role, Seat: seat, Model: model, Count: n}
		if cc, ok := costs[history.CallKind{Role: role, Model: model}]; ok {
			mean := cc.MeanUSD
			pc.MeanUSD, pc.Samples, pc.Source = &mean, cc.Calls, sourceHistory
		} else if usd, _, ok := history.TableCost(role, model); ok {
			pc.MeanUSD, pc.Source = &usd, sourceTable
		}
		if pc.MeanUSD != nil {
			plan.PerIteration += *pc.MeanUSD * float64(n)
		} else {
			plan.Unknown += n
		}
		plan.Calls = append(plan.Calls, pc)
	}
	add("actor", "", p.ActorModel, 1)
	for _, s := range j.Seats() {
		seat, rest, _ := strings.Cut(s, "=")
		model, reps, _ := strings.Cut(rest, "×")
		n, _ := strconv.Atoi(reps)
		add("judge", seat, model, max(n, 1))
	}
	add("meta", "", p.MetaModel, 1)
	plan.Calls[len(plan.Calls)-1].MaySkip = j.Config().MetaSkip().Enabled && p.GatePolicy != rules.MetaOverride
	plan.AtMost = plan.PerIteration * float64(plan.MaxIterations)
	if f.candidates > 0 {
		plan.Candidates = f.candidates
		plan.AtMost *= float64(f.candidates)
	}
	if f.json {
		c.printJSON(plan)
		return 0
	}
	c.printDryPlan(plan)
	return 0
}

// printDryPlan is the dry run as text.
func (c *cli) printDryPlan(p dryPlan) {
	w := c.stdout
	fmt.Fprintf(w, "dry run: no model is called and nothing is recorded\ntask: %s\nprofile: %s\nrubric: %s\n", oneLine(p.Task, 300), p.Profile, p.RubricID)
	per := 0
	for _, pc := range p.Calls {
		per += pc.Count
		name := pc.Role
		if pc.Seat != "" {
			name += " " + pc.Seat
		}
		est := "no recorded call and no price for this model"
		switch pc.Source {
		case sourceHistory:
			est = fmt.Sprintf("$%.4f each (history: mean of %d recorded)", *pc.MeanUSD, pc.Samples)
		case sourceTable:
			est = fmt.Sprintf("$%.4f each (price table)", *pc.MeanUSD)
		}
		if pc.MaySkip {
			est += "; skipped when the jury is unanimous and confident"
		}
		fmt.Fprintf(w, "  %-20s %-28s ×%d  %s\n", name, firstNonEmpty(pc.Model, "(CLI default)"), pc.Count, est)
	}
	fmt.Fprintf(w, "calls: %d per iteration, at most %d (%d iterations)\n", per, per*p.MaxIterations, p.MaxIterations)
	if n := p.Candidates; n > 0 {
		fmt.Fprintf(w, "candidates: %d, each a run like the above; plus 2 pairwise calls (%s) per pair of finalists, at most %d\n",
			n, "the meta-judge's model", n*(n-1))
	}
	fmt.Fprintf(w, "estimate: $%.4f per iteration, at most $%.4f", p.PerIteration, p.AtMost)
	if p.Unknown > 0 {
		fmt.Fprintf(w, " — %d call(s) per iteration have no recorded cost and no price and are not counted", p.Unknown)
	}
	fmt.Fprintln(w)
}
