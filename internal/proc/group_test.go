package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every way a run ends takes the child's whole process group with it:
// what the child left running never outlives the run nor holds its output.
func TestRunKillsTheGroup(t *testing.T) {
	requireSh(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	tests := []struct {
		name    string
		script  string // $0 is the file for the stray's pid
		timeout time.Duration
		cancel  time.Duration // cancel the context after this, when > 0
		output  string
		maxTime time.Duration
	}{
		{name: "at the deadline", script: `sleep 30 & echo $! > "$0"; wait`, timeout: 300 * time.Millisecond},
		{name: "when the context ends", script: `sleep 30 & echo $! > "$0"; wait`, timeout: time.Hour, cancel: 300 * time.Millisecond},
		// The background sleep inherits the output; without the group kill,
		// reading the output would block until it exits.
		{name: "after the child exits, without waiting for strays", script: `sleep 30 & echo $! > "$0"; echo done`,
			timeout: time.Hour, output: "done\n", maxTime: PipeGrace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel > 0 {
				time.AfterFunc(tt.cancel, cancel)
			}
			c := sh(tt.script, pidFile)
			c.Timeout, c.Combined = tt.timeout, true
			start := time.Now()
			res, _ := Run(ctx, c)
			if d := time.Since(start); tt.maxTime > 0 && d >= tt.maxTime {
				t.Errorf("took %s: the run waited for a stray holding its output", d)
			}
			if res.Output != tt.output {
				t.Errorf("output = %q, want %q", res.Output, tt.output)
			}
			waitGone(t, readPids(t, pidFile, 1)[0], 60*time.Second)
		})
	}
}

// A process that left the group on purpose (setsid) is beyond the group
// kill; it still cannot hang the run past PipeGrace.
func TestEscapedProcessDoesNotHangTheRun(t *testing.T) {
	requireSh(t)
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := sh(`setsid sleep 30 & echo $! > "$0"; echo started`, pidFile)
	c.Combined = true
	start := time.Now()
	res, err := Run(context.Background(), c)
	d := time.Since(start)
	t.Cleanup(func() {
		if data, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	if d > PipeGrace+3*time.Second {
		t.Errorf("took %s with an escaped process holding the output", d)
	}
	if err != nil || res.ExitCode != 0 || res.Output != "started\n" {
		t.Errorf("result = %+v, %v", res, err)
	}
}

// TestHelperParent is the parent process of TestChildDiesWithKilledParent:
// it runs one child that never ends.
func TestHelperParent(t *testing.T) {
	script := os.Getenv("TRIBUNAL_TEST_HELPER_CHILD")
	if script == "" {
		t.Skip("helper process only")
	}
	Run(context.Background(), Cmd{Path: script, Env: testEnv, Timeout: time.Hour})
}

// A parent killed with SIGKILL runs no handler. Its direct child must die
// with it (Linux: the parent-death signal; elsewhere the watchdog, about a
// second later), and so must the child's own subprocesses (the watchdog),
// instead of running to the deadline.
func TestChildDiesWithKilledParent(t *testing.T) {
	requireSh(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	script := filepath.Join(dir, "child")
	body := "#!/bin/sh\nsleep 300 &\n{ echo $$; echo $!; } > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nexec sleep 300\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestHelperParent$")
	parent.Env = append(os.Environ(), "TRIBUNAL_TEST_HELPER_CHILD="+script)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, pidFile, 2)
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	for i, who := range []string{"the child", "the child's subprocess"} {
		t.Run(who, func(t *testing.T) { waitGone(t, pids[i], 60*time.Second) })
	}
}

// The watchdog kills the whole group at the deadline when nobody else
// does, at once when the parent is gone, and not at all once cancelled.
func TestWatchdog(t *testing.T) {
	requireSh(t)
	me := os.Getpid()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		parent int
		after  time.Duration
		stop   bool
		killed bool
		within time.Duration
	}{
		{name: "at the deadline", parent: me, after: 0, killed: true, within: watchdogGrace + 10*time.Second},
		{name: "parent gone, long before the deadline", parent: gone.Process.Pid, after: time.Hour, killed: true, within: 60 * time.Second},
		{name: "cancelled", parent: me, after: 0, stop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sleep", "300")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go cmd.Wait()
			defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			stop := watchdog(cmd.Process.Pid, tt.parent, tt.after)
			if tt.stop {
				stop()
			}
			if tt.killed {
				waitGone(t, cmd.Process.Pid, tt.within)
				return
			}
			time.Sleep(watchdogGrace + 2*time.Second) // past the deadline the watchdog had
			if !alive(cmd.Process.Pid) {
				t.Fatal("a cancelled watchdog still killed the group")
			}
		})
	}
}

// The watchdog runs in a fixed environment: a repository that ships a
// "sleep" of its own, under a user's PATH that names ".", never has it run.
func TestWatchdogIgnoresTheRepositorysPath(t *testing.T) {
	requireSh(t)
	repo := t.TempDir()
	marker := filepath.Join(repo, "ran")
	if err := os.WriteFile(filepath.Join(repo, "sleep"), []byte("#!/bin/sh\ntouch "+marker+"\nexec /bin/sleep \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	t.Setenv("PATH", "."+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd := exec.Command("/bin/sh", "-c", "exec /bin/sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	stop := watchdog(cmd.Process.Pid, os.Getpid(), time.Hour)
	defer stop()
	// The loop's first sleep starts at once; give a loaded machine time.
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the watchdog ran the repository's sleep")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
