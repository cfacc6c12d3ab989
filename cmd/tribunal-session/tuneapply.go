package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging/tune"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// tuneApply is `tune apply ID`: the user's act of putting a shipped
// rubric in place, recorded in the ledger.
func (c *cli) tuneApply(ctx context.Context, args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		c.stdout.Write([]byte(tuneHelp))
		return 0
	}
	if len(args) != 1 {
		c.errorf("tune apply: give exactly one tune run id")
		c.hint("tribunal-session tune apply ID (the id 'tune' printed; 'last' for the newest run)")
		return exitUsage
	}
	h, ok := c.locate(ctx, "tune apply", "run it inside the repository the run was made in")
	if !ok {
		return exitUsage
	}
	ids := records.ListTunes(h.project.Dir)
	slices.Reverse(ids)
	id, err := records.ResolveID(ids, args[0], "tune run")
	if err != nil {
		c.errorf("tune apply: %v", err)
		c.hint("tune apply takes the id a tune run printed ('last' for the newest); a run that ships is made with: tribunal-session tune --cases FILE")
		return exitUsage
	}
	root, _ := projectkey.FindWorktreeRoot(h.dir)
	a, err := tune.Apply(tune.ApplyInput{ProjectDir: h.project.Dir, WorktreeRoot: root, OnlookerDir: h.onlooker, ID: id,
		Env: env.Env{Getenv: c.getenv, Home: c.home(), Environ: os.Environ(), Schemas: c.schemas()}, Now: time.Now()})
	if err != nil {
		c.errorf("tune apply: %v", err)
		if errors.Is(err, tune.ErrNotApplicable) {
			c.hint("only a run whose outcome is ship can be applied, once")
			return exitUsage
		}
		return exitAborted
	}
	fmt.Fprintf(c.stdout, "applied tune run %s: rubric %q is now in %s (recorded in the ledger)\n", a.ID, a.RubricID, a.File)
	return 0
}
