package proc

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testEnv is a fixed environment, so the tests neither read this
// process's environment nor depend on the developer's.
var testEnv = []string{"PATH=/usr/bin:/bin"}

func requireSh(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("POSIX process groups")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
}

// sh is a Cmd running script with /bin/sh; extra become $0, $1, ….
func sh(script string, extra ...string) Cmd {
	return Cmd{Path: "/bin/sh", Args: append([]string{"-c", script}, extra...), Env: testEnv, Timeout: 20 * time.Second}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return !(i >= 0 && i+2 < len(s) && s[i+2] == 'Z')
}

// waitGone polls until pid is gone; it fails (killing pid) after within.
// The bounds callers pass are far below the 300 s the test processes would
// otherwise live, yet generous: under the race detector on a loaded
// 2-core runner the watchdog's one-second polls can lag by seconds.
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d still alive after %v", pid, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPids polls path until it holds n pids, one a line (written by the
// child with an atomic rename).
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				pids = append(pids, pid)
			}
		}
		if err == nil && len(pids) == n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %d pids in %s (%q)", n, path, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
