package detached

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// fakeClock advances by each poll the waiter sleeps; step, when set, runs
// at each poll (a run's next move), before the waiter looks again.
type fakeClock struct {
	now   time.Time
	polls int
	step  func(poll int)
}

func (c *fakeClock) waiter(lines *[]string) Waiter {
	return Waiter{
		Now: func() time.Time { return c.now },
		After: func(d time.Duration) <-chan time.Time {
			c.polls++
			c.now = c.now.Add(d)
			if c.step != nil {
				c.step(c.polls)
			}
			ch := make(chan time.Time, 1)
			ch <- c.now
			return ch
		},
		Relay: func(line string) { *lines = append(*lines, line) },
		Poll:  time.Second,
	}
}

func appendLog(t *testing.T, r Run, s string) {
	t.Helper()
	f, err := os.OpenFile(r.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// TestWaitFollowsInSlices: a wait relays whole lines only, ends with the
// run's exit status once the exit file is written, and the next wait
// starts where it left the log.
func TestWaitFollowsInSlices(t *testing.T) {
	r := newRun(t)
	if err := r.WritePID(procid.Self()); err != nil {
		t.Fatal(err)
	}
	appendLog(t, r, "iteration 1\nhalf a li")
	var lines []string
	clock := &fakeClock{now: time.Unix(0, 0)}
	clock.step = func(poll int) {
		if poll == 2 {
			appendLog(t, r, "ne\n")
			testkit.WriteFile(t, filepath.Join(r.Dir, records.RunExitFile), "1\n")
			appendLog(t, r, "written after the exit file\n")
		}
	}
	outcome, st := clock.waiter(&lines).Wait(context.Background(), r, time.Minute)
	if outcome != Done || st != (Status{State: Exited, Code: 1}) {
		t.Fatalf("Wait = %v %+v, want done, exited 1", outcome, st)
	}
	want := "iteration 1\n|half a line\n|written after the exit file\n"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("relayed %q, want %q", got, want)
	}
	if r.Offset() != int64(len(strings.ReplaceAll(want, "|", ""))) {
		t.Errorf("offset %d after the whole log", r.Offset())
	}
	lines = nil
	appendLog(t, r, "later\n")
	if outcome, _ := clock.waiter(&lines).Wait(context.Background(), r, time.Minute); outcome != Done {
		t.Fatalf("second Wait = %v", outcome)
	}
	if strings.Join(lines, "") != "later\n" {
		t.Errorf("second wait relayed %q, want only what is new", lines)
	}
}

// TestWaitOutcomes: a run that outlasts the wait, a wait interrupted, and
// a run whose process vanished without an exit file.
func TestWaitOutcomes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	self := procid.Self()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name    string
		pid     procid.ID
		ctx     context.Context
		want    Outcome
		state   State
		minPoll int
	}{
		{"still running", self, context.Background(), TimedOut, Running, 30},
		{"interrupted", self, cancelled, Interrupted, Running, 0},
		{"vanished", procid.ID{PID: self.PID, Start: self.Start + 1}, context.Background(), Done, Vanished, 0},
	} {
		r := newRun(t)
		if err := r.WritePID(tt.pid); err != nil {
			t.Fatal(err)
		}
		var lines []string
		clock := &fakeClock{now: time.Unix(0, 0)}
		w := clock.waiter(&lines)
		if tt.name == "interrupted" {
			w.After = func(time.Duration) <-chan time.Time { return nil } // never fires
		}
		outcome, st := w.Wait(tt.ctx, r, 30*time.Second)
		if outcome != tt.want || st.State != tt.state {
			t.Errorf("%s: Wait = %v %v, want %v %v", tt.name, outcome, st.State, tt.want, tt.state)
		}
		if clock.polls < tt.minPoll {
			t.Errorf("%s: gave up after %d polls of 1s, want %d", tt.name, clock.polls, tt.minPoll)
		}
	}
}

// TestStartRecordsTheRun: Start runs the command in its directory and
// environment, its stdout to output.txt and stderr to the progress log,
// and records a pid that names it.
func TestStartRecordsTheRun(t *testing.T) {
	r := newRun(t)
	work := t.TempDir()
	err := r.Start(Command{Program: "/bin/sh", Args: []string{"-c", `echo "$WHO in $(pwd)"; echo progress >&2; echo 0 > "$1/x"; mv "$1/x" "$1/exit"`, "sh", r.Dir},
		Dir: work, Env: []string{"WHO=child"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	// The real clock: the child runs on its own time.
	w := Waiter{Now: time.Now, After: time.After, Relay: func(l string) { lines = append(lines, l) }, Poll: 5 * time.Millisecond}
	outcome, st := w.Wait(context.Background(), r, time.Minute)
	if outcome != Done || st != (Status{State: Exited}) {
		t.Fatalf("Wait = %v %+v", outcome, st)
	}
	realWork, _ := filepath.EvalSymlinks(work)
	if got := strings.TrimSpace(string(r.Output())); got != "child in "+realWork && got != "child in "+work {
		t.Errorf("output = %q", got)
	}
	if strings.Join(lines, "") != "progress\n" {
		t.Errorf("progress log relayed %q", lines)
	}
	data, _ := os.ReadFile(filepath.Join(r.Dir, records.RunPIDFile))
	if _, err := procid.Parse(string(data)); err != nil {
		t.Errorf("pid file %q: %v", data, err)
	}
}
