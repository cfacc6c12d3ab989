package detached

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func newRun(t *testing.T) Run {
	t.Helper()
	r, err := Create(filepath.Join(t.TempDir(), "runs", "01ARZ3NDEKTSV4RRFFQ69G5FAV"), "the task\n")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOffsetFile: the wait offset reads back what was written; anything
// else (missing, negative, not a number, a FIFO) reads as 0, so a damaged
// file costs a repeated log, never a lost one.
func TestOffsetFile(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		want       int64
	}{
		{"missing", "", 0},
		{"written", "1234\n", 1234},
		{"spaces", "  7 ", 7},
		{"negative", "-3\n", 0},
		{"not a number", "twelve\n", 0},
		{"too long", "99999999999999999999999\n", 0},
	} {
		r := newRun(t)
		if tt.file != "" {
			testkit.WriteFile(t, filepath.Join(r.Dir, records.RunOffsetFile), tt.file)
		}
		if got := r.Offset(); got != tt.want {
			t.Errorf("%s: Offset() = %d, want %d", tt.name, got, tt.want)
		}
	}
	r := newRun(t)
	if err := r.SetOffset(42); err != nil {
		t.Fatal(err)
	}
	if got := r.Offset(); got != 42 {
		t.Errorf("Offset after SetOffset(42) = %d", got)
	}
	if err := syscall.Mkfifo(filepath.Join(r.Dir, records.RunOffsetFile+".fifo"), 0o600); err == nil {
		os.Remove(filepath.Join(r.Dir, records.RunOffsetFile))
		os.Rename(filepath.Join(r.Dir, records.RunOffsetFile+".fifo"), filepath.Join(r.Dir, records.RunOffsetFile))
		if got := r.Offset(); got != 0 {
			t.Errorf("Offset of a FIFO = %d, want 0 without hanging", got)
		}
	}
}

// TestStatus: a run's state from its files — exited with its code (the
// exit file wins over any pid), running while its process lives or
// before its pid file is written, vanished when its pid is gone or was
// reused by another process, or the pid file is garbage.
func TestStatus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	self := procid.Self()
	stale := procid.ID{PID: self.PID, Start: self.Start + 1}.String()
	for _, tt := range []struct {
		name, pid, exit string
		want            Status
	}{
		{"exited 0", self.String(), "0\n", Status{State: Exited}},
		{"exited with a code", stale, "4\n", Status{State: Exited, Code: 4}},
		{"cancelled (aborted)", "", "3\n", Status{State: Exited, Code: 3}},
		{"exit file without a number", self.String(), "x\n", Status{State: Exited, Err: ErrBadExit}},
		{"running", self.String(), "", Status{State: Running}},
		{"running, pid of an earlier version", strconv.Itoa(self.PID), "", Status{State: Running}},
		{"starting: no pid file yet", "", "", Status{State: Running}},
		{"stale pid: reused by another process", stale, "", Status{State: Vanished}},
		{"garbage pid file", "not a pid\n", "", Status{State: Vanished}},
	} {
		r := newRun(t)
		if tt.pid != "" {
			testkit.WriteFile(t, filepath.Join(r.Dir, records.RunPIDFile), tt.pid+"\n")
		}
		if tt.exit != "" {
			testkit.WriteFile(t, filepath.Join(r.Dir, records.RunExitFile), tt.exit)
		}
		if got := r.Status(); got != tt.want {
			t.Errorf("%s: Status() = %+v, want %+v", tt.name, got, tt.want)
		}
		if got := r.Finished(); got != (tt.exit != "") {
			t.Errorf("%s: Finished() = %v", tt.name, got)
		}
	}
}

// TestWriteExitAndPID: the files the run writes read back as its state.
func TestWriteExitAndPID(t *testing.T) {
	r := newRun(t)
	if err := r.WritePID(procid.Self()); err != nil {
		t.Fatal(err)
	}
	if got := r.Status(); got.State != Running {
		t.Fatalf("after WritePID(self): %+v, want running", got)
	}
	if err := r.WriteExit(5); err != nil {
		t.Fatal(err)
	}
	if got := r.Status(); got != (Status{State: Exited, Code: 5}) {
		t.Errorf("after WriteExit(5): %+v", got)
	}
	data, err := os.ReadFile(r.TaskPath())
	if err != nil || string(data) != "the task\n" {
		t.Errorf("task file = %q, %v", data, err)
	}
}

// TestStopSignalsOnlyItsProcess: Stop signals the pid in a run's pid file
// only while it names the process that started then. A pid whose process
// has another start time (the kernel reused it) or whose start time was
// never recorded is left alone.
func TestStopSignalsOnlyItsProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	id := procid.Of(cmd.Process.Pid)
	r := newRun(t)
	for _, tt := range []struct {
		name, file string
		want       Stopped
	}{
		{"recycled pid", procid.ID{PID: id.PID, Start: id.Start + 1}.String(), NotRunning},
		{"no start time", strconv.Itoa(id.PID), Unproven},
		{"no pid", "", NotRunning},
	} {
		testkit.WriteFile(t, filepath.Join(r.Dir, records.RunPIDFile), tt.file+"\n")
		if got, _ := r.Stop(); got != tt.want {
			t.Errorf("%s: Stop() = %v, want %v", tt.name, got, tt.want)
		}
		if procid.Check(id) != procid.Alive {
			t.Fatalf("%s: the bystander process was signalled", tt.name)
		}
	}
	testkit.WriteFile(t, filepath.Join(r.Dir, records.RunPIDFile), id.String()+"\n")
	if got, pid := r.Stop(); got != Signalled || pid != id.PID {
		t.Fatalf("Stop of the run's own process = %v %d", got, pid)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the run's process ended with %v, want SIGTERM", err)
	}
	// Its process reaped, the run (which wrote no exit file) has vanished.
	if got := r.Status(); got.State != Vanished {
		t.Errorf("after its process ended: %+v, want vanished", got)
	}
	if got, _ := r.Stop(); got != NotRunning {
		t.Errorf("second Stop = %v, want NotRunning", got)
	}
}
