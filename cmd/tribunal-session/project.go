package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/session/detached"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// here is a repository and its project in the store: where the commands
// that read or change a project's records find them.
type here struct {
	dir      string // the directory the command runs in
	repo     projectkey.Repo
	project  store.Project
	onlooker string // the store's root
	logPath  string // the events log
}

// locateDir finds the repository of dir and its project.
func (c *cli) locateDir(ctx context.Context, dir string) (here, error) {
	repo, err := projectkey.Resolve(ctx, dir, c.git(os.Environ()))
	if err != nil || repo.Key == "" {
		return here{}, fmt.Errorf("%q is not inside a git repository", dir)
	}
	onlooker, logPath := events.ResolvePaths(c.getenv, c.home())
	return here{dir: dir, repo: repo, project: store.ForKey(onlooker, repo.Key), onlooker: onlooker, logPath: logPath}, nil
}

// projectDir is the project of dir's repository.
func (c *cli) projectDir(ctx context.Context, dir string) (store.Project, error) {
	h, err := c.locateDir(ctx, dir)
	return h.project, err
}

// locate finds the current directory's repository and project for the
// command name; false means the error, and hint when there is one, was
// printed.
func (c *cli) locate(ctx context.Context, name, hint string) (here, bool) {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("%s: cannot determine the current directory: %v", name, err)
		return here{}, false
	}
	h, err := c.locateDir(ctx, dir)
	if err != nil {
		c.errorf("%s: %v", name, err)
		if hint != "" {
			c.hint("%s", hint)
		}
		return here{}, false
	}
	return h, true
}

// resolveOne finds what the one id a user typed names (a whole id, a
// part of one that names one record, or "last"; find applies the rule to one kind of record)
// for the command name; false means the error, and hint when there is
// one, was printed.
func resolveOne[T any](c *cli, name, id string, find func(string) (T, error), hint string) (T, bool) {
	v, err := find(id)
	var amb *records.AmbiguousError
	if errors.As(err, &amb) {
		// One candidate a line, with its kind and time, so the person
		// can pick: the one-line form is for the MCP tools.
		c.errorf("%s: %s:", name, amb.Head())
		for _, cand := range amb.Candidates {
			c.item(cand)
		}
		c.hint("%s", records.HintAmbiguous)
		return v, false
	}
	if err != nil {
		c.errorf("%s: %v", name, err)
		if hint != "" {
			c.hint("%s", hint)
		}
		return v, false
	}
	return v, true
}

// record resolves id among the project's tasks and advisory verdicts.
func (h here) record(id string) (history.Ref, error) {
	return history.Resolve(h.project.Dir, id)
}

// task resolves id among the project's tasks only, "last" the newest
// task: an advisory verdict (a Stop-hook turn) is refused with why, for
// the command that needs a task's iterations.
func (h here) task(why string) func(string) (history.Ref, error) {
	return func(id string) (history.Ref, error) {
		ref, err := history.ResolveTask(h.project.Dir, id)
		if err == nil && ref.Kind != history.KindTask {
			return ref, fmt.Errorf("%q is an advisory verdict%s", id, why)
		}
		return ref, err
	}
}

// run resolves id among the project's detached runs (history.ResolveRun,
// which accepts canonical ULIDs only, so an id never names a path outside
// runs/).
func (h here) run(id string) (detached.Run, error) {
	runs := filepath.Join(h.project.Dir, records.RunsDir)
	taskID, err := history.ResolveRun(runs, id)
	if err != nil {
		return detached.Run{}, err
	}
	return detached.Run{Dir: filepath.Join(runs, taskID)}, nil
}

// Hints shared by the commands that read a project's records.
const (
	hintHistory = "run it inside the git repository whose history you want"
	hintIDs     = "tribunal-session log lists this project's ids"
	hintTaskIDs = "tribunal-session log lists this project's task ids"
)
