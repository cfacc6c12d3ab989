package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// TestCandidatesCostAndTime measures what `run --candidates 3` costs in
// dollars and wall time against one candidate and against a plain run, with
// the scripted fake actor and judges (testdata/bench/candidates-cost.txtar:
// fixed per-call costs and latencies). It is a measurement, not a check of
// behaviour, so it runs only when TRIBUNAL_BENCH_CANDIDATES is set
// (scripts/bench-candidates.sh); TRIBUNAL_BENCH_RUNS (default 3) runs each
// form and reports the median.
func TestCandidatesCostAndTime(t *testing.T) {
	if os.Getenv("TRIBUNAL_BENCH_CANDIDATES") == "" {
		t.Skip("set TRIBUNAL_BENCH_CANDIDATES=1 to measure (scripts/bench-candidates.sh)")
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("TRIBUNAL_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	p := testcmds.Params("testdata/bench", false)
	p.Cmds = maps.Clone(p.Cmds)
	p.Cmds["measure"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 2 {
			ts.Fatalf("usage: measure LABEL tribunal-session-args...")
		}
		var walls []time.Duration
		var cost float64
		for range runs {
			start := time.Now()
			ts.Check(ts.Exec("tribunal-session", args[1:]...))
			walls = append(walls, time.Since(start))
			var rep struct {
				Outcome string   `json:"outcome"`
				Cost    *float64 `json:"total_cost_usd"`
			}
			ts.Check(json.Unmarshal([]byte(ts.ReadFile("stdout")), &rep))
			if rep.Outcome != "accepted" || rep.Cost == nil {
				ts.Fatalf("%s: outcome %s, cost %v", args[0], rep.Outcome, rep.Cost)
			}
			cost = *rep.Cost
		}
		slices.Sort(walls)
		line := fmt.Sprintf("%-14s cost $%.4f  wall median %6.2fs (min %.2fs, max %.2fs, %d runs)",
			args[0], cost, walls[len(walls)/2].Seconds(), walls[0].Seconds(), walls[len(walls)-1].Seconds(), runs)
		t.Log(line)
	}
	testscript.Run(t, p)
}
