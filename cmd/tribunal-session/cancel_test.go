package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestStopRunSignalsOnlyItsProcess: cancel signals the pid in a run's pid
// file only while it names the process that started then. A pid whose
// process has another start time (the kernel reused it) or whose start
// time was never recorded is left alone, and the user is told why.
func TestStopRunSignalsOnlyItsProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	start := func() (*exec.Cmd, procid.ID) {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, procid.Of(cmd.Process.Pid)
	}
	runDir := t.TempDir()
	writePID := func(s string) {
		if err := os.WriteFile(filepath.Join(runDir, records.RunPIDFile), []byte(s+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bystander, id := start()
	for _, tt := range []struct{ name, file, why string }{
		{"recycled pid", procid.ID{PID: id.PID, Start: id.Start + 1}.String(), "is not running"},
		{"no start time", strconv.Itoa(id.PID), "cannot be proven"},
		{"no pid", "", "is not running"},
	} {
		writePID(tt.file)
		if code, why, _ := stopRun(runDir); code == 0 || !strings.Contains(why, tt.why) {
			t.Errorf("%s: stopRun = %d %q, want a refusal saying %q", tt.name, code, why, tt.why)
		}
		if procid.Check(id) != procid.Alive {
			t.Fatalf("%s: the bystander process was signalled", tt.name)
		}
	}
	writePID(id.String())
	if code, why, _ := stopRun(runDir); code != 0 {
		t.Fatalf("stopRun of the run's own process = %d %q", code, why)
	}
	err := bystander.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the run's process ended with %v, want SIGTERM", err)
	}
}
