package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// A detached run keeps its process files in <project>/runs/<task_id>/:
// task.txt (the task), progress.log (its stderr), output.txt (its stdout:
// the summary or JSON report), pid, and exit (its exit status, written
// last). The /tribunal command starts a run this way because a full
// session can outlast the Bash tool's time limit: `wait` then follows it in
// slices that each fit, and says plainly when the run is still going.

func (c *cli) projectDir(ctx context.Context, dir string) (store.Project, error) {
	repo, err := projectkey.Resolve(ctx, dir, c.git(os.Environ()))
	if err != nil || repo.Key == "" {
		return store.Project{}, fmt.Errorf("%q is not inside a git repository", dir)
	}
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	return store.ForKey(onlooker, repo.Key), nil
}

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
	runDir := filepath.Join(project.Dir, records.RunsDir, taskID)
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		c.errorf("run: cannot create %q: %v", runDir, err)
		return exitAborted
	}
	taskFile := filepath.Join(runDir, "task.txt")
	if err := os.WriteFile(taskFile, []byte(task), 0o600); err != nil {
		c.errorf("run: cannot write %q: %v", taskFile, err)
		return exitAborted
	}
	self, err := os.Executable()
	if err != nil {
		c.errorf("run: cannot find this program's path: %v", err)
		return exitAborted
	}
	args := []string{"run", "--task-file", taskFile, "--task-id", taskID, "--run-dir", runDir}
	if f.rubric != "" {
		args = append(args, "--rubric", f.rubric)
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
	if f.json {
		args = append(args, "--json")
	}
	if f.inPlace {
		args = append(args, "--in-place")
	}
	if f.candidates > 0 {
		args = append(args, "--candidates", strconv.Itoa(f.candidates))
	}
	stdout, err1 := store.OpenInPlace(filepath.Join(runDir, records.RunOutputFile), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	stderr, err2 := store.OpenInPlace(filepath.Join(runDir, "progress.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err := errors.Join(err1, err2); err != nil {
		c.errorf("run: %v", err)
		return exitAborted
	}
	defer stdout.Close()
	defer stderr.Close()
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A new session: the run must outlive the shell (and the Bash tool
	// call) that started it, and not receive its terminal's signals.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		c.errorf("run: cannot start the background run: %v", err)
		return exitAborted
	}
	writeRunPID(runDir, cmd.Process.Pid)
	cmd.Process.Release()
	fmt.Fprintln(c.stdout, taskID)
	c.progressf("task %s started in the background; follow it with: tribunal-session wait %s", taskID, taskID)
	return 0
}

func writeExit(runDir string, code int) {
	store.WriteFileAtomic(filepath.Join(runDir, records.RunExitFile), []byte(strconv.Itoa(code)+"\n"), 0o600)
}

// findRun finds the detached run id names in this project: "last", a
// task id or a unique prefix of one (history.ResolveRun, which accepts
// canonical ULIDs only, so an id can never name a path outside runs/). It
// returns the run's directory and task id.
func (c *cli) findRun(ctx context.Context, id string) (string, string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		return "", "", err
	}
	runs := filepath.Join(project.Dir, records.RunsDir)
	taskID, err := history.ResolveRun(runs, id)
	if err != nil {
		return "", "", err
	}
	return filepath.Join(runs, taskID), taskID, nil
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
	runDir, taskID, err := c.findRun(ctx, fs.Arg(0))
	if err != nil {
		c.errorf("wait: %v", err)
		c.hint("run it from the same repository as 'run --detach'; 'tribunal-session log' lists recent tasks")
		return exitUsage
	}
	deadline := time.Now().Add(*timeout)
	logPath := filepath.Join(runDir, "progress.log")
	// Each wait prints only what the previous one did not: a run is
	// followed in slices, and repeating the whole log each time would
	// bury what is new.
	offset := readOffset(runDir)
	if offset > 0 {
		c.progressf("(progress up to here was shown by an earlier wait; the whole log is %s)", logPath)
	}
	defer func() { writeOffset(runDir, offset) }()
	for {
		offset = c.follow(logPath, offset)
		if data, err := store.ReadRegular(filepath.Join(runDir, records.RunExitFile), smallRunFile); err == nil {
			offset = c.follow(logPath, offset)
			out, _ := store.ReadRegular(filepath.Join(runDir, records.RunOutputFile), maxRunOutput)
			if bytes.HasPrefix(out, []byte("{")) {
				c.stdout.Write(out) // run --detach --json: the report, for programs
			} else {
				c.markdown(string(out))
			}
			code, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				return exitAborted
			}
			return code
		}
		if !alive(runDir) {
			offset = c.follow(logPath, offset)
			c.errorf("the run of task %s ended without finishing (killed, or the machine restarted)", taskID)
			c.hint("its progress log is %s", logPath)
			return exitAborted
		}
		if time.Now().After(deadline) {
			c.progressf("task %s is still running after %s; run 'tribunal-session wait %s' again to keep following it", taskID, *timeout, taskID)
			return exitStillRuning
		}
		select {
		case <-ctx.Done():
			c.progress("stopped waiting; the run goes on in the background")
			return exitStillRuning
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// writeRunPID records the run's pid with its start time: cancel signals
// it only while it still names this run, never a process that reused it.
func writeRunPID(runDir string, pid int) {
	os.WriteFile(filepath.Join(runDir, records.RunPIDFile), []byte(procid.Of(pid).String()+"\n"), 0o600)
}

func readOffset(runDir string) int64 {
	data, err := store.ReadRegular(filepath.Join(runDir, records.RunOffsetFile), smallRunFile)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func writeOffset(runDir string, n int64) {
	store.WriteFileAtomic(filepath.Join(runDir, records.RunOffsetFile), []byte(strconv.FormatInt(n, 10)+"\n"), 0o600)
}

// follow copies what was appended to the progress log since offset to
// stderr and returns the new offset.
func (c *cli) follow(path string, offset int64) int64 {
	f, err := store.OpenRegular(path)
	if err != nil {
		return offset
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return offset
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			// A partial last line is read again next time.
			return offset
		}
		c.relay(line)
		offset += int64(len(line))
	}
}

// A detached run's directory is read through store.ReadRegular, so that a
// planted FIFO cannot hang `wait` or `cancel`: pid and exit hold a number,
// output.txt the run's report.
const (
	smallRunFile = 64
	maxRunOutput = 64 << 20
)

func alive(runDir string) bool {
	data, err := store.ReadRegular(filepath.Join(runDir, records.RunPIDFile), smallRunFile)
	if err != nil {
		return true // started a moment ago; the pid file comes next
	}
	id, err := procid.Parse(string(data))
	if err != nil {
		return false
	}
	if id.Start == 0 {
		return worktree.ProcessAlive(id.PID) // a pid file of an earlier version
	}
	return procid.Check(id) != procid.Gone
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
	runDir, taskID, err := c.findRun(context.Background(), args[0])
	if err != nil {
		c.errorf("cancel: %v", err)
		return exitUsage
	}
	args = []string{taskID}
	if _, err := os.Stat(filepath.Join(runDir, records.RunExitFile)); err == nil {
		c.progress("task " + args[0] + " has already finished")
		return 0
	}
	if code, why, hint := stopRun(runDir); code != 0 {
		c.errorf("cancel: task %s %s", args[0], why)
		if hint != "" {
			c.hint("%s", hint)
		}
		return code
	}
	c.progress("asked task " + args[0] + " to stop; it records itself as aborted")
	return 0
}

// stopRun sends SIGTERM to the detached run of runDir, and only while its
// pid file's pid still names the process that started then (procid): a pid
// the kernel gave to another process after the run died is never
// signalled, nor one whose start time was not recorded. The exit code is
// 0 when the signal was sent; otherwise why (and what to do) says why not.
func stopRun(runDir string) (code int, why, hint string) {
	data, _ := store.ReadRegular(filepath.Join(runDir, records.RunPIDFile), smallRunFile)
	id, err := procid.Parse(string(data))
	if err != nil {
		return exitAborted, "is not running", ""
	}
	switch procid.Check(id) {
	case procid.Gone:
		return exitAborted, "is not running", ""
	case procid.Unknown:
		return exitAborted, fmt.Sprintf("cannot be proven to be process %d any more (its start time was not recorded); it was not signalled", id.PID),
			fmt.Sprintf("if `ps -p %d -o args=` shows `tribunal-session run`, stop it with `kill %d`", id.PID, id.PID)
	}
	if !procid.Signal(id, syscall.SIGTERM) {
		return exitAborted, "is not running", ""
	}
	return 0, "", ""
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
