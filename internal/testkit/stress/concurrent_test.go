//go:build linux

package stress

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// TestConcurrentWriters runs 8 Stop hooks (each its own Claude Code
// session, four to a repository, so they also share a project directory)
// and 2 /tribunal session runners at the same time against one
// ONLOOKER_DIR, each hook worker for several turns and the runners until
// the hooks are done. Every process must succeed; afterwards
// every line of the log is schema-valid, sequence numbers are unique,
// contiguous and in line order, every chain is complete, every stop file
// is whole and holds its session's last verdict, and no temporary file is
// left.
func TestConcurrentWriters(t *testing.T) {
	testtier.Require(t, testtier.Stress)
	w := newWorld(t)
	const hooks, sessions = 8, 2
	rounds := *roundsFlag
	stopRepos := []string{w.mkrepo("stop-a", true), w.mkrepo("stop-b", true)}
	sessionRepos := []string{w.mkrepo("session-a", false), w.mkrepo("session-b", false)}
	script := filepath.Join(w.root, "script.json")
	testkit.WriteFile(t, script, sessionScript)
	transcript := filepath.Join(w.root, "transcript.jsonl")
	testkit.WriteFile(t, transcript, `{"type":"user","message":{"role":"user","content":"add files please"}}`+"\n")

	var (
		mu       sync.Mutex
		failures []string
		durs     []time.Duration
		wg       sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		failures = append(failures, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	start := make(chan struct{})
	began := time.Now()
	for i := range hooks {
		wg.Go(func() {
			<-start
			repo := stopRepos[i%len(stopRepos)]
			sid := fmt.Sprintf("stress-session-%d", i)
			for r := range rounds {
				// A new file each turn gives the tree a new fingerprint, so
				// every turn is judged.
				testkit.WriteFile(t, filepath.Join(repo, fmt.Sprintf("w%d-r%d.txt", i, r)), "x\n")
				p := w.stopGate(sid, repo, transcript, 0)
				mu.Lock()
				durs = append(durs, p.dur)
				mu.Unlock()
				if p.code != 0 || p.stdout != "" || p.stderr != "" {
					fail("stop-gate %s round %d: exit %d, stdout %q, stderr %q", sid, r, p.code, p.stdout, p.stderr)
				}
			}
		})
	}
	// The session runners keep going until the hooks are done, so that the
	// two kinds of writer overlap for the whole run.
	var hooksDone atomic.Bool
	var sessionRuns atomic.Int64
	var swg sync.WaitGroup
	for i := range sessions {
		swg.Go(func() {
			<-start
			for n := 0; n == 0 || !hooksDone.Load(); n++ {
				p := w.session(sessionRepos[i], script, 0)
				sessionRuns.Add(1)
				if p.code != 0 {
					fail("tribunal-session %d run %d: exit %d\nstdout %s\nstderr %s", i, n, p.code, p.stdout, p.stderr)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	hooksDone.Store(true)
	swg.Wait()
	elapsed := time.Since(began)
	for _, f := range failures {
		t.Error(f)
	}
	if t.Failed() {
		t.FailNow()
	}

	log := readLog(t, w.logPath())
	want := hooks*rounds*len(stopChain) + int(sessionRuns.Load())*sessionEvents
	if len(log) != want {
		t.Fatalf("%d events, want %d", len(log), want)
	}
	checkSequences(t, log, true)

	lastTask := map[string]string{}
	stopTasks := 0
	for task, chain := range chains(log) {
		switch len(chain) {
		case len(stopChain):
			if !slices.Equal(chain, stopChain) {
				t.Errorf("task %s: chain %v, want %v", task, chain, stopChain)
			}
			stopTasks++
		case sessionEvents:
			if chain[0] != "session.start" || chain[len(chain)-1] != "session.complete" {
				t.Errorf("task %s: chain %v", task, chain)
			}
		default:
			t.Errorf("task %s: %d events %v", task, len(chain), chain)
		}
	}
	if stopTasks != hooks*rounds {
		t.Errorf("%d advisory chains, want %d", stopTasks, hooks*rounds)
	}
	for _, l := range log {
		if l.eventType == "tribunal.session.start" {
			lastTask[l.sessionID] = l.taskID
		}
	}
	for i := range hooks {
		sid := fmt.Sprintf("stress-session-%d", i)
		matches, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "stop-"+store.SanitizeSessionID(sid)+".json"))
		if len(matches) != 1 {
			t.Fatalf("session %s: stop files %v", sid, matches)
		}
		doc := checkStopFile(t, matches[0], sid)
		if got := doc.Get("task_id").String(); got != lastTask[sid] {
			t.Errorf("session %s: stop file holds task %s, the last judged turn was %s", sid, got, lastTask[sid])
		}
	}
	ledgers, entries := w.verifyLedgers()
	tr := scanTree(t, w.onlooker)
	if len(tr.temps) != 0 {
		t.Errorf("temporary files left by uninterrupted runs: %v", tr.temps)
	}
	if fi, err := os.Stat(w.logPath()); err == nil {
		t.Logf("%d stop-gate runs (%d at a time) + %d tribunal-session runs (%d at a time) in %v (stop-gate median %v): %d events, %d lines, %d bytes of log, %d JSON files, %d ledger(s) with %d entries verified",
			hooks*rounds, hooks, sessionRuns.Load(), sessions, elapsed.Round(time.Millisecond), median(durs).Round(time.Millisecond), len(log), len(log), fi.Size(), tr.json, ledgers, entries)
	}
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
