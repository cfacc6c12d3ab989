package claude

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(data))
	return len(f) < 3 || f[2] != "Z"
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive after %v", pid, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil && pid > 0 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hangingClaude writes a script that records its pid and sleeps.
func hangingClaude(t *testing.T, dir string) (script, pidFile string) {
	pidFile = filepath.Join(dir, "child.pid")
	script = filepath.Join(dir, "claude")
	body := "#!/bin/sh\necho $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nexec sleep 300\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, pidFile
}

// TestHelperParent is the parent process of TestChildDiesWithKilledParent:
// it runs one call that never ends.
func TestHelperParent(t *testing.T) {
	script := os.Getenv("TRIBUNAL_TEST_HELPER_CLAUDE")
	if script == "" {
		t.Skip("helper process only")
	}
	Exec{Path: script, Env: os.Environ()}.Run(context.Background(), Call{Timeout: time.Hour})
}

// A parent killed with SIGKILL runs no handler; the child must die with it
// (Linux: the parent-death signal; elsewhere the watchdog, a second later)
// instead of running to its deadline.
func TestChildDiesWithKilledParent(t *testing.T) {
	dir := t.TempDir()
	script, pidFile := hangingClaude(t, dir)
	parent := exec.Command(os.Args[0], "-test.run=^TestHelperParent$")
	parent.Env = append(os.Environ(), "TRIBUNAL_TEST_HELPER_CLAUDE="+script)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	child := readPid(t, pidFile)
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	waitGone(t, child, 5*time.Second)
}

// The watchdog kills the whole group at the deadline when nobody else does,
// and a cancelled watchdog leaves the group alone.
func TestWatchdog(t *testing.T) {
	start := func() *exec.Cmd {
		cmd := exec.Command("sleep", "300")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go cmd.Wait()
		return cmd
	}
	me := os.Getpid()
	fired := start()
	Watchdog(fired.Process.Pid, me, 0)
	waitGone(t, fired.Process.Pid, watchdogGrace+10*time.Second)

	// A parent that is gone: the group goes at once, long before the
	// deadline.
	orphan := start()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	Watchdog(orphan.Process.Pid, gone.Process.Pid, time.Hour)
	waitGone(t, orphan.Process.Pid, 5*time.Second)

	kept := start()
	defer syscall.Kill(-kept.Process.Pid, syscall.SIGKILL)
	stop := Watchdog(kept.Process.Pid, me, 0)
	stop()
	time.Sleep(watchdogGrace + 2*time.Second) // past the deadline the watchdog had
	if !alive(kept.Process.Pid) {
		t.Fatal("a cancelled watchdog still killed the group")
	}
}
