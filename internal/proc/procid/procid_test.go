package procid

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// sleeper starts a process that is nobody's lock holder, and ends it when
// the test does.
func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// running reports whether cmd's process still runs (a zombie does not).
func running(cmd *exec.Cmd) bool { return Check(Of(cmd.Process.Pid)) == Alive }

func needStart(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no process start time on " + runtime.GOOS)
	}
}

func TestCheck(t *testing.T) {
	needStart(t)
	live := sleeper(t)
	id := Of(live.Process.Pid)
	if id.Start == 0 {
		t.Fatalf("Of(%d) has no start time", id.PID)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		id   ID
		want State
	}{
		{"self", Self(), Alive},
		{"a live process", id, Alive},
		{"its pid with another start (recycled)", ID{PID: id.PID, Start: id.Start + 1}, Gone},
		{"its pid with no start recorded", ID{PID: id.PID}, Unknown},
		{"a reaped process", ID{PID: dead.Process.Pid, Start: 1}, Gone},
		{"a pid no process can have", ID{PID: 999999999, Start: 1}, Gone},
		{"pid 0", ID{}, Unknown},
	} {
		if got := Check(c.id); got != c.want {
			t.Errorf("%s: Check(%+v) = %v, want %v", c.name, c.id, got, c.want)
		}
	}
}

// A pid that now names another process (its start time differs) is never
// signalled, and neither is one whose start is unknown; the process named
// exactly is.
func TestSignalOnlyTheSameProcess(t *testing.T) {
	needStart(t)
	cmd := sleeper(t)
	id := Of(cmd.Process.Pid)
	if Signal(ID{PID: id.PID, Start: id.Start + 1}, syscall.SIGKILL) {
		t.Error("a recycled pid was signalled")
	}
	if Signal(ID{PID: id.PID}, syscall.SIGKILL) {
		t.Error("a pid without a start time was signalled")
	}
	if !running(cmd) {
		t.Fatal("the unrelated process is gone")
	}
	if !Signal(id, syscall.SIGKILL) {
		t.Fatal("the process itself was not signalled")
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("wait = %v, want killed by SIGKILL", err)
	}
}

func TestSignalRefusesGroupsAndSelf(t *testing.T) {
	for _, pid := range []int{0, -1, 1, -os.Getpid(), os.Getpid()} {
		if Signal(ID{PID: pid, Start: 1}, syscall.Signal(0)) {
			t.Errorf("Signal(pid %d) was sent", pid)
		}
	}
}

// A killed child that has not been waited for is a zombie: it holds no
// descriptor and no lock any more, so it is gone.
func TestZombieIsGone(t *testing.T) {
	needStart(t)
	cmd := sleeper(t)
	id := Of(cmd.Process.Pid)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// The kernel turns it into a zombie asynchronously: look until it
	// has, bounded by the test's own deadline.
	deadline := time.Now().Add(10 * time.Second)
	for Check(id) != Gone {
		if time.Now().After(deadline) {
			t.Fatal("a killed, unreaped child is not gone")
		}
		runtime.Gosched()
	}
}

// TestParse: String's form reads back; a bare pid (an earlier version's
// file) has no start time; anything else is refused.
func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want ID
		ok   bool
	}{
		{"1234 987654\n", ID{PID: 1234, Start: 987654}, true},
		{ID{PID: 42, Start: 7}.String(), ID{PID: 42, Start: 7}, true},
		{"1234\n", ID{PID: 1234}, true},
		{"", ID{}, false},
		{"0 5", ID{}, false},
		{"-3 5", ID{}, false},
		{"12 x", ID{}, false},
		{"12 5 6", ID{}, false},
		{"twelve", ID{}, false},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
