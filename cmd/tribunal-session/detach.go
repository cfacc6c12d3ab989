package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/session/detached"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// A detached run's files and process are the detached package's; this
// file parses wait's and cancel's arguments, finds the run and prints.

func (c *cli) detach(ctx context.Context, f runFlags, task string) int {
	// The same checks as a foreground run, before anything starts: a bad
	// rubric or setting is exit 2 here, not a task id that fails later.
	p, code := c.prepare(ctx, f, task, true)
	if code != 0 {
		return code
	}
	dir := p.opts.Dir
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		c.errorf("run: %v", err)
		c.hint("run tribunal inside the git repository the task is about")
		return exitUsage
	}
	taskID, err := events.NewULID(rand.Reader, time.Now())
	if err != nil {
		c.errorf("run: %v", err)
		return exitAborted
	}
	run, err := detached.Create(filepath.Join(project.Dir, records.RunsDir, taskID), task)
	if err != nil {
		c.errorf("run: %v", err)
		return exitAborted
	}
	self, err := os.Executable()
	if err != nil {
		c.errorf("run: cannot find this program's path: %v", err)
		return exitAborted
	}
	args := append([]string{"run", "--task-file", run.TaskPath(), "--task-id", taskID, "--run-dir", run.Dir}, f.childArgs()...)
	if err := run.Start(detached.Command{Program: self, Args: args, Dir: dir, Env: os.Environ()}); err != nil {
		c.errorf("run: %v", err)
		return exitAborted
	}
	fmt.Fprintln(c.stdout, taskID)
	c.progressf("task %s started in the background; follow it with: tribunal-session wait %s", taskID, taskID)
	return 0
}

// childArgs are the flags of f a detached run passes on to its child.
func (f runFlags) childArgs() []string {
	var args []string
	if f.rubric != "" {
		args = append(args, "--rubric", f.rubric)
	}
	if f.profile != "" {
		args = append(args, "--profile", f.profile)
	}
	if f.maxIterations > 0 {
		args = append(args, "--max-iterations", strconv.Itoa(f.maxIterations))
	}
	if f.budget > 0 {
		args = append(args, "--budget-usd", strconv.FormatFloat(f.budget, 'f', -1, 64))
	}
	if f.sessionID != "" {
		args = append(args, "--session-id", f.sessionID)
	}
	if f.quorum != "" {
		args = append(args, "--quorum", string(f.quorum))
	}
	if f.json {
		args = append(args, "--json")
	}
	if f.inPlace {
		args = append(args, "--in-place")
	}
	if f.candidates > 0 {
		args = append(args, "--candidates", strconv.Itoa(f.candidates))
	}
	return args
}

func (c *cli) waitCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("wait", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	timeout := fs.Duration("timeout", 9*time.Minute, "how long to wait")
	if err := fs.Parse(reorder(args)); err != nil {
		return c.flagError("wait", fs, err)
	}
	if fs.NArg() != 1 {
		c.errorf("usage: tribunal-session wait TASK_ID|last [--timeout 9m]")
		return exitUsage
	}
	const hint = "run it from the same repository as 'run --detach'; 'tribunal-session log' lists recent tasks"
	h, ok := c.locate(ctx, "wait", hint)
	if !ok {
		return exitUsage
	}
	run, ok := resolveOne(c, "wait", fs.Arg(0), h.run, hint)
	if !ok {
		return exitUsage
	}
	taskID := run.ID()
	if run.Offset() > 0 {
		c.progressf("(progress up to here was shown by an earlier wait; the whole log is %s)", run.LogPath())
	}
	w := detached.Waiter{Now: time.Now, After: time.After, Relay: c.relay, Poll: 250 * time.Millisecond}
	outcome, st := w.Wait(ctx, run, *timeout)
	switch {
	case outcome == detached.TimedOut:
		c.progressf("task %s is still running after %s; run 'tribunal-session wait %s' again to keep following it", taskID, *timeout, taskID)
		return exitStillRuning
	case outcome == detached.Interrupted:
		c.progress("stopped waiting; the run goes on in the background")
		return exitStillRuning
	case st.State == detached.Vanished:
		c.errorf("the run of task %s ended without finishing (killed, or the machine restarted)", taskID)
		c.hint("its progress log is %s", run.LogPath())
		return exitAborted
	}
	if out := run.Output(); bytes.HasPrefix(out, []byte("{")) {
		c.stdout.Write(out) // run --detach --json: the report, for programs
	} else {
		c.markdown(string(out))
	}
	if st.Err != nil {
		return exitAborted
	}
	return st.Code
}

func (c *cli) cancelCmd(args []string) int {
	args, ok := c.positional("cancel", args)
	if !ok {
		return exitUsage
	}
	if len(args) != 1 {
		c.errorf("usage: tribunal-session cancel TASK_ID|last")
		return exitUsage
	}
	h, ok := c.locate(context.Background(), "cancel", "")
	if !ok {
		return exitUsage
	}
	run, ok := resolveOne(c, "cancel", args[0], h.run, "")
	if !ok {
		return exitUsage
	}
	taskID := run.ID()
	if run.Finished() {
		c.progress("task " + taskID + " has already finished")
		return 0
	}
	switch what, pid := run.Stop(); what {
	case detached.NotRunning:
		c.errorf("cancel: task %s is not running", taskID)
		return exitAborted
	case detached.Unproven:
		c.errorf("cancel: task %s cannot be proven to be process %d any more (its start time was not recorded); it was not signalled", taskID, pid)
		c.hint("if `ps -p %d -o args=` shows `tribunal-session run`, stop it with `kill %d`", pid, pid)
		return exitAborted
	}
	c.progress("asked task " + taskID + " to stop; it records itself as aborted")
	return 0
}

// reorder moves flags after the positional argument in front of it, so
// that both "wait ID --timeout 1m" and "wait --timeout 1m ID" work.
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return append(flags, pos...)
}
