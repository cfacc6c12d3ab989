// Package detached keeps the files of a run started in the background (its task, progress log, output, pid, exit status and wait offset, in one directory per run) and starts, follows and stops such a run by them.
package detached

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// A run's directory (<project>/runs/<task id>/) holds task.txt (the
// task), progress.log (the run's stderr), output.txt (its stdout: the
// summary or JSON report), pid, exit (its exit status, written last) and
// wait.offset (how much of the log `wait` has shown). The /tribunal
// command starts a run this way because a full session can outlast the
// Bash tool's time limit: `wait` follows it in slices that each fit.
const (
	TaskFile     = "task.txt"
	ProgressFile = "progress.log"
)

// The directory is read through store.ReadRegular, so that a planted FIFO
// cannot hang `wait` or `cancel`: pid, exit and offset hold a number,
// output.txt the run's report.
const (
	smallFile = 64
	maxOutput = 64 << 20
)

// Run is one detached run, named by its directory.
type Run struct {
	Dir string
}

func (r Run) path(name string) string { return filepath.Join(r.Dir, name) }

// ID is the run's task id: its directory's name.
func (r Run) ID() string { return filepath.Base(r.Dir) }

// TaskPath is the file holding the run's task.
func (r Run) TaskPath() string { return r.path(TaskFile) }

// LogPath is the run's progress log.
func (r Run) LogPath() string { return r.path(ProgressFile) }

// Create makes the directory of a new run and writes its task.
func Create(dir, task string) (Run, error) {
	r := Run{Dir: dir}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Run{}, fmt.Errorf("cannot create %q: %w", dir, err)
	}
	if err := os.WriteFile(r.TaskPath(), []byte(task), 0o600); err != nil {
		return Run{}, fmt.Errorf("cannot write %q: %w", r.TaskPath(), err)
	}
	return r, nil
}

// Command is the process a run is: program and args, started in Dir with
// the environment Env.
type Command struct {
	Program string
	Args    []string
	Dir     string
	Env     []string
}

// Start starts cmd as the run, its stdout to output.txt and its stderr to
// the progress log, records its pid and lets it go: it is not waited for.
func (r Run) Start(cmd Command) error {
	stdout, err1 := store.OpenInPlace(r.path(records.RunOutputFile), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	stderr, err2 := store.OpenInPlace(r.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	defer stdout.Close()
	defer stderr.Close()
	c := exec.Command(cmd.Program, cmd.Args...)
	c.Dir, c.Env = cmd.Dir, cmd.Env
	c.Stdout, c.Stderr = stdout, stderr
	// A new session: the run must outlive the shell (and the Bash tool
	// call) that started it, and not receive its terminal's signals.
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return fmt.Errorf("cannot start the background run: %w", err)
	}
	r.WritePID(procid.Of(c.Process.Pid))
	c.Process.Release()
	return nil
}

// WritePID records the run's process with its start time: Stop signals
// it only while it still names this run, never a process that reused the
// pid.
func (r Run) WritePID(id procid.ID) error {
	return os.WriteFile(r.path(records.RunPIDFile), []byte(id.String()+"\n"), 0o600)
}

// WriteExit records the run's exit status; the run writes it last, so a
// run with an exit file has finished and its output is complete.
func (r Run) WriteExit(code int) error {
	return store.WriteFileAtomic(r.path(records.RunExitFile), []byte(strconv.Itoa(code)+"\n"), 0o600)
}

// Finished reports whether the run has an exit file.
func (r Run) Finished() bool {
	_, err := os.Stat(r.path(records.RunExitFile))
	return err == nil
}

// Output is what the run printed on stdout: its summary, or its JSON
// report.
func (r Run) Output() []byte {
	out, _ := store.ReadRegular(r.path(records.RunOutputFile), maxOutput)
	return out
}

// Offset is how many bytes of the progress log earlier waits have shown;
// 0 when none did or the file is unreadable.
func (r Run) Offset() int64 {
	data, err := store.ReadRegular(r.path(records.RunOffsetFile), smallFile)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// SetOffset records how much of the progress log has been shown.
func (r Run) SetOffset(n int64) error {
	return store.WriteFileAtomic(r.path(records.RunOffsetFile), []byte(strconv.FormatInt(n, 10)+"\n"), 0o600)
}
