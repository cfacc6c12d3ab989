package main

import (
	"context"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// judgesRunner is claudeRunner for a local command with no actor
// (calibrate, rejudge; review decides after loading its policy): a jury that calls no model — every seat and the
// meta-judge heuristic (spec §4.9) — needs no claude executable, so CI
// without one can review. Anything that still asks claude then fails
// as the missing executable.
func (c *cli) judgesRunner(dir string, environ []string, rubricID string) (claude.Runner, error) {
	runner, err := c.claudeRunner(dir, environ)
	if err == nil || !c.offlineJury(dir, rubricID) {
		return runner, err
	}
	return missingClaude(err), nil
}

// missingClaude is the runner of a jury that needs no claude executable:
// anything that still asks claude fails as the missing executable.
func missingClaude(err error) claude.Runner {
	return claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
		return claude.Result{}, err
	})
}

// offlineJury reports whether the jury configured for dir and rubricID
// calls no model (judging.Jury.Offline); a configuration that does not
// load is not offline, and its error is reported where the command
// loads it.
func (c *cli) offlineJury(dir, rubricID string) bool {
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		root = ""
	}
	quiet := func(string) {}
	j, err := judging.Load(judging.Options{RubricID: rubricID, WorktreeRoot: root},
		env.Env{Getenv: c.getenv, Home: c.home(), Warn: quiet, Relay: quiet, Schemas: c.schemas()})
	return err == nil && j.Offline()
}
