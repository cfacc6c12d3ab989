package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// The Stop hook's judge runs detached in advisory mode: a turn ends before
// its verdict exists. These helpers wait for it, read what it left, and
// make sure no judge outlives its test.

// judgeLocks lists the session locks under the world's Onlooker directory.
func (w *world) judgeLocks() []string {
	locks, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "judges", "*.lock"))
	return locks
}

// judgesBusy reports whether a detached judge is queued or running.
func (w *world) judgesBusy() bool { return testcmds.BusyJudge(w.onlooker) != "" }

// awaitJudgesIn polls until every detached judge under onlooker is done.
func awaitJudgesIn(t testing.TB, onlooker string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for testcmds.BusyJudge(onlooker) != "" {
		if time.Now().After(deadline) {
			t.Fatalf("a detached judge is still running after %v", within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// awaitJudges polls until every detached judge is done.
func (w *world) awaitJudges(within time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for w.judgesBusy() {
		if time.Now().After(deadline) {
			w.t.Fatalf("a detached judge is still running after %v\n%s", within, w.api.Summary())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// killJudges ends the judges a failed test left running: each is the
// leader of a session of its own (its pid is its process group), and its
// claude child dies with it.
func (w *world) killJudges() {
	for _, l := range w.judgeLocks() {
		if !testcmds.LockHeld(l) {
			continue
		}
		data, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		var info struct {
			PID int `json:"pid"`
		}
		if json.Unmarshal(data, &info) == nil && info.PID > 1 {
			syscall.Kill(-info.PID, syscall.SIGKILL)
			syscall.Kill(info.PID, syscall.SIGKILL)
		}
	}
}

// judgements returns every judgement record of the project (one per judge
// call, verdict or not), oldest first.
func (w *world) judgements() []map[string]any {
	w.t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "stop-*", "*.json"))
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	var out []map[string]any
	for _, f := range files {
		out = append(out, readJSON(w.t, f))
	}
	return out
}
