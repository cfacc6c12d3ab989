//go:build linux

package stress

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// victim is one process of the kill test.
type victim struct {
	kind  string // "stop-gate" or "tribunal-session"
	sid   string // stop-gate only
	delay time.Duration
	res   proc
}

// TestKillAtRandomMoments starts stop-gate and tribunal-session processes,
// three at a time, and SIGKILLs each after a random delay drawn from a
// logged seed (half spread over a whole run, half aimed at its second half,
// where the records are written). Afterwards the log has no torn or invalid line
// and no repeated sequence number, every JSON file is whole (an
// interrupted atomic write leaves only its temporary file), every stop
// file belongs to its session, and a fresh run of each command succeeds at
// once: no lock stays held and no counter or id file is broken.
func TestKillAtRandomMoments(t *testing.T) {
	testtier.Require(t, testtier.Stress)
	w := newWorld(t)
	seed := *seedFlag
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (rerun with: go test ./internal/testkit/stress -run TestKillAtRandomMoments -args -stress.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))

	stopRepo := w.mkrepo("stop", true)
	sessionRepo := w.mkrepo("session", false)
	script := filepath.Join(w.root, "script.json")
	testkit.WriteFile(t, script, sessionScript)
	transcript := filepath.Join(w.root, "transcript.jsonl")
	testkit.WriteFile(t, transcript, `{"type":"user","message":{"role":"user","content":"add files please"}}`+"\n")
	turn := 0
	dirty := func() {
		turn++
		testkit.WriteFile(t, filepath.Join(stopRepo, "f"+strconv.Itoa(turn)+".txt"), "x\n")
	}

	// One undisturbed run of each sets the time scale of the kills.
	dirty()
	cs := w.stopGate("calibrate", stopRepo, transcript, 0)
	cr := w.session(sessionRepo, script, 0)
	if cs.code != 0 || cs.stderr != "" || cr.code != 0 {
		t.Fatalf("calibration failed: stop-gate %d %q; tribunal-session %d %q", cs.code, cs.stderr, cr.code, cr.stderr)
	}
	scale := map[string]time.Duration{"stop-gate": cs.dur, "tribunal-session": cr.dur}

	n := *killsFlag
	const parallel = 3
	victims := make([]victim, n)
	for i := range victims {
		v := &victims[i]
		v.kind = "stop-gate"
		if rng.IntN(3) == 0 {
			v.kind = "tribunal-session"
		}
		// The calibration ran alone; three at a time, runs take about
		// twice as long.
		d := 2 * scale[v.kind]
		if rng.IntN(2) == 0 {
			v.delay = time.Millisecond + time.Duration(rng.Int64N(int64(d)))
		} else {
			v.delay = d/2 + time.Duration(rng.Int64N(int64(d*3/4)))
		}
		// Four session ids, so stop files are overwritten while killed.
		v.sid = "kill-" + strconv.Itoa(i%4)
	}
	began := time.Now()
	for i := 0; i < n; i += parallel {
		var wg sync.WaitGroup
		for j := i; j < min(i+parallel, n); j++ {
			v := &victims[j]
			if v.kind == "stop-gate" {
				dirty()
			}
			wg.Go(func() {
				if v.kind == "stop-gate" {
					v.res = w.stopGate(v.sid, stopRepo, transcript, v.delay)
				} else {
					v.res = w.session(sessionRepo, script, v.delay)
				}
			})
		}
		wg.Wait()
	}
	elapsed := time.Since(began)
	killed, setupFailures := 0, 0
	var summary strings.Builder
	for i, v := range victims {
		state := fmt.Sprintf("exit %d", v.res.code)
		if v.res.killed {
			state = "killed"
			killed++
		} else if v.kind == "stop-gate" && (v.res.code != 0 || v.res.stdout != "") {
			t.Errorf("victim %d: stop-gate finished with %d, stdout %q", i, v.res.code, v.res.stdout)
		} else if v.res.code == 2 {
			// A setup failure (spec §7.2: one session.complete, aborted,
			// no session.start), e.g. git refusing a task worktree while a
			// killed run's git left a lock behind.
			setupFailures++
			state += ": " + safetext.FirstLine(v.res.stderr, 160)
		}
		fmt.Fprintf(&summary, "\n  %2d %-16s delay %-8v %s", i, v.kind, v.delay.Round(100*time.Microsecond), state)
	}
	t.Logf("victims (stop-gate run %v, tribunal-session run %v):%s", cs.dur.Round(time.Millisecond), cr.dur.Round(time.Millisecond), summary.String())

	// Orphans (a fake claude whose parent was killed) finish before the
	// checks, so that nothing writes while they look.
	reapOrphans(t, w.mark)

	// Fresh runs must work at once: the kernel dropped the dead processes'
	// locks, and the counter and machine id are intact.
	dirty()
	after := w.stopGate("after", stopRepo, transcript, 0)
	if after.code != 0 || after.stdout != "" || after.stderr != "" {
		t.Fatalf("stop-gate after the kills: exit %d, stdout %q, stderr %q", after.code, after.stdout, after.stderr)
	}
	if after.dur > 5*time.Second {
		t.Errorf("stop-gate after the kills took %v: a lock was left held?", after.dur)
	}
	if p := w.session(sessionRepo, script, 0); p.code != 0 {
		t.Fatalf("tribunal-session after the kills: exit %d\n%s", p.code, p.stderr)
	}

	log := readLog(t, w.logPath())
	gaps := checkSequences(t, log, false)
	seqData, err := os.ReadFile(filepath.Join(w.onlooker, "event-sequence"))
	if err != nil {
		t.Fatal(err)
	}
	if next, err := strconv.ParseInt(string(seqData), 10, 64); err != nil || next <= log[len(log)-1].seq {
		t.Errorf("event-sequence holds %q, the last line has sequence %d", seqData, log[len(log)-1].seq)
	}
	partial := 0
	lastTask := map[string]string{}
	setupRecords := 0
	for task, chain := range chains(log) {
		if slices.Equal(chain, []string{"session.complete"}) && setupRecords < setupFailures {
			setupRecords++
			continue
		}
		if chain[0] != "session.start" {
			t.Errorf("task %s starts with %s", task, chain[0])
		}
		if len(chain) <= len(stopChain) && slices.Equal(chain, stopChain[:len(chain)]) && len(chain) < len(stopChain) {
			partial++
		}
	}
	for _, l := range log {
		if l.eventType == "tribunal.session.start" {
			lastTask[l.sessionID] = l.taskID
		}
	}
	tr := scanTree(t, w.onlooker)
	stops, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "stop-*.json"))
	for _, path := range stops {
		sid := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "stop-"), ".json")
		doc := checkStopFile(t, path, sid)
		if sid == "after" && doc.Get("task_id").String() != lastTask[sid] {
			t.Errorf("stop file of %q holds task %s, its last chain is %s", sid, doc.Get("task_id").String(), lastTask[sid])
		}
		if sid != store.SanitizeSessionID(sid) {
			t.Errorf("stop file %s for an unsanitised id", path)
		}
	}
	ledgers, entries := w.verifyLedgers()
	t.Logf("%d victims (%d killed, %d finished, %d setup failures recorded as one session.complete) in %v; log: %d lines, %d sequence gaps, %d incomplete advisory chains; %d ledger(s) with %d entries verified; %d JSON files whole; %d temporary files left: %v",
		n, killed, n-killed, setupRecords, elapsed.Round(time.Millisecond), len(log), gaps, partial, ledgers, entries, tr.json, len(tr.temps), tr.temps)
}
