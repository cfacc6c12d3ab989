package ledger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Appenders in several processes and several goroutines at once, all
// starting before any key exists: one key, one unbroken chain, every
// entry present once, and each writer's entries in its own order.
func TestConcurrentAppends(t *testing.T) {
	const procs, goroutines, each = 3, 6, 12
	f := newFixture(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(self, "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("LEDGER_TEST_APPEND=%s,%s,%d,proc%d", f.path, f.keyDir, each, p))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				rec := map[string]any{"writer": fmt.Sprintf("goroutine%d", g), "i": i}
				if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, rec, time.Now()); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("appender process: %v", err)
		}
	}
	r := mustVerify(t, f.path)
	if r.Entries != (procs+goroutines)*each || len(r.Keys) != 1 {
		t.Fatalf("report %+v, want %d entries under one key", r, (procs+goroutines)*each)
	}
	file, err := os.Open(f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	next := map[string]int{}
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			Record struct {
				Writer string `json:"writer"`
				I      int    `json:"i"`
			} `json:"record"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.Record.I != next[e.Record.Writer] {
			t.Fatalf("%s: entry %d follows %d", e.Record.Writer, e.Record.I, next[e.Record.Writer]-1)
		}
		next[e.Record.Writer]++
	}
	if len(next) != procs+goroutines {
		t.Errorf("writers seen: %v", next)
	}
	for w, n := range next {
		if n != each || !(strings.HasPrefix(w, "proc") || strings.HasPrefix(w, "goroutine")) {
			t.Errorf("writer %s: %d entries", w, n)
		}
	}
}

// Verify holds the lock shared: run against a stream of appends it sees
// each append whole, never a line beyond the head.
func TestVerifyDuringAppends(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := range 40 {
			if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, map[string]int{"i": i}, time.Now()); err != nil {
				t.Error(err)
				return
			}
		}
	})
	checks := 0
	for {
		select {
		case <-done:
			wg.Wait()
			if r := mustVerify(t, f.path); r.Entries != 41 {
				t.Errorf("%d entries, want 41", r.Entries)
			}
			t.Logf("%d verifications during the appends", checks)
			return
		default:
		}
		if _, err := Verify(f.path); err != nil {
			t.Fatalf("verify during appends: %v", err)
		}
		// flock gives no fairness: a verifier re-taking the shared lock
		// back to back can starve the writer on a loaded machine. A person
		// running verify never does that; leave the writer a gap.
		time.Sleep(time.Millisecond)
		checks++
	}
}
