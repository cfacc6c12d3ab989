package main

import (
	"bufio"
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

	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// A detached run keeps its process files in <project>/runs/<task_id>/:
// task.txt (the task), progress.log (its stderr), output.txt (its stdout:
// the summary or JSON report), pid, and exit (its exit status, written
// last). The /tribunal command starts a run this way because a full
// session can outlast the Bash tool's time limit: `wait` then follows it in
// slices that each fit, and says plainly when the run is still going.

func (c *cli) projectDir(ctx context.Context, dir string) (store.Project, error) {
	repo, err := projectkey.Resolve(ctx, dir, projectkey.ExecGit("git", os.Environ()))
	if err != nil || repo.Key == "" {
		return store.Project{}, fmt.Errorf("%q is not inside a git repository", dir)
	}
	onlooker, _ := events.ResolvePaths(c.getenv, c.home())
	return store.ForKey(onlooker, repo.Key), nil
}

func (c *cli) detach(ctx context.Context, f runFlags, task string) int {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
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
	runDir := filepath.Join(project.Dir, "runs", taskID)
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
	if f.sessionID != "" {
		args = append(args, "--session-id", f.sessionID)
	}
	if f.json {
		args = append(args, "--json")
	}
	stdout, err1 := store.OpenInPlace(filepath.Join(runDir, "output.txt"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
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
	os.WriteFile(filepath.Join(runDir, "pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600)
	cmd.Process.Release()
	fmt.Fprintln(c.stdout, taskID)
	c.warn(fmt.Sprintf("tribunal: task %s started in the background; follow it with: tribunal-session wait %s", taskID, taskID))
	return 0
}

func writeExit(runDir string, code int) {
	store.WriteFileAtomic(filepath.Join(runDir, "exit"), []byte(strconv.Itoa(code)+"\n"), 0o600)
}

func (c *cli) findRun(ctx context.Context, taskID string) (string, error) {
	if !validID(taskID) {
		return "", fmt.Errorf("%q is not a task id (26 characters, as printed by run --detach)", taskID)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		return "", err
	}
	runDir := filepath.Join(project.Dir, "runs", taskID)
	if _, err := os.Stat(runDir); err != nil {
		return "", fmt.Errorf("no detached run %s in this project", taskID)
	}
	return runDir, nil
}

// validID accepts ULIDs only, so a task id can never name a path outside
// the runs directory.
func validID(id string) bool {
	if len(id) != 26 {
		return false
	}
	for _, r := range id {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			return false
		}
	}
	return true
}

func (c *cli) waitCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("wait", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	timeout := fs.Duration("timeout", 9*time.Minute, "how long to wait")
	if err := fs.Parse(reorder(args)); err != nil || fs.NArg() != 1 {
		c.errorf("usage: tribunal-session wait TASK_ID [--timeout 9m]")
		return exitUsage
	}
	runDir, err := c.findRun(ctx, fs.Arg(0))
	if err != nil {
		c.errorf("wait: %v", err)
		c.hint("run it from the same repository as 'run --detach'; 'tribunal-session log' lists recent tasks")
		return exitUsage
	}
	deadline := time.Now().Add(*timeout)
	logPath := filepath.Join(runDir, "progress.log")
	var offset int64
	for {
		offset = c.follow(logPath, offset)
		if data, err := store.ReadRegular(filepath.Join(runDir, "exit"), smallRunFile); err == nil {
			c.follow(logPath, offset)
			out, _ := store.ReadRegular(filepath.Join(runDir, "output.txt"), maxRunOutput)
			c.stdout.Write(out)
			code, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				return exitAborted
			}
			return code
		}
		if !alive(runDir) {
			c.follow(logPath, offset)
			c.errorf("the run of task %s ended without finishing (killed, or the machine restarted)", fs.Arg(0))
			c.hint("its progress log is %s", logPath)
			return exitAborted
		}
		if time.Now().After(deadline) {
			c.warn(fmt.Sprintf("tribunal: task %s is still running after %s; run 'tribunal-session wait %s' again to keep following it", fs.Arg(0), *timeout, fs.Arg(0)))
			return exitStillRuning
		}
		select {
		case <-ctx.Done():
			c.warn("tribunal: stopped waiting; the run goes on in the background")
			return exitStillRuning
		case <-time.After(250 * time.Millisecond):
		}
	}
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
		c.warn(line)
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
	data, err := store.ReadRegular(filepath.Join(runDir, "pid"), smallRunFile)
	if err != nil {
		return true // started a moment ago; the pid file comes next
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return false
	}
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && s[i+2] == 'Z' {
			return false
		}
	}
	return true
}

func (c *cli) cancelCmd(args []string) int {
	if len(args) != 1 {
		c.errorf("usage: tribunal-session cancel TASK_ID")
		return exitUsage
	}
	runDir, err := c.findRun(context.Background(), args[0])
	if err != nil {
		c.errorf("cancel: %v", err)
		return exitUsage
	}
	if _, err := os.Stat(filepath.Join(runDir, "exit")); err == nil {
		c.warn("tribunal: task " + args[0] + " has already finished")
		return 0
	}
	data, _ := store.ReadRegular(filepath.Join(runDir, "pid"), smallRunFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 0 || syscall.Kill(pid, syscall.SIGTERM) != nil {
		c.errorf("cancel: task %s is not running", args[0])
		return exitAborted
	}
	c.warn("tribunal: asked task " + args[0] + " to stop; it records itself as aborted")
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
