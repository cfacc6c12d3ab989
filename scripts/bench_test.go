// Package scripts holds the repository's shell scripts; its one test runs
// every benchmark script of `make bench` once on small inputs (tier
// bench), since nothing else runs them: a bench that breaks — as one did
// when a rule began refusing its fake model's answers — is found here,
// not when someone next needs its figures.
package scripts

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// TestBenchScripts runs each bench with inputs small enough for seconds,
// one after another (they time things), and checks that it completes and
// prints its figures. The figures themselves are not judged: on a few
// hundred files the ratios mean nothing.
func TestBenchScripts(t *testing.T) {
	testtier.Require(t, testtier.Bench)
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the benches build with go, which is not on PATH")
	}
	benches := []struct {
		script string
		env    []string
		want   []string // each a regexp the output must match
	}{
		{"bench-stop-gate.sh", []string{"BENCH_TRACKED=300", "BENCH_IGNORED=300", "RUNS_FAST=3", "RUNS_LARGE=2", "WARMUP=1", "BENCH_METHOD=loop"},
			[]string{`disabled / true \(median\) +[0-9.]+`, `small clean / git-status \(median\) +[0-9.]+`}},
		{"bench-session-start.sh", []string{"RUNS=3", "WARMUP=1"},
			[]string{`session-start disabled / stop-gate disabled \(median\) +[0-9.]+`}},
		{"bench-start.sh", []string{"RUNS=3", "WARMUP=1"},
			[]string{`--version / true \(median\) +[0-9.]+`}},
		{"bench-stop-judge.sh", []string{"RUNS=3", "WARMUP=1"},
			[]string{`judged turn, advisory mode \(median\) +[0-9.]+ ms`}},
		{"bench-task-start.sh", []string{"BENCH_TRACKED=300", "TRIBUNAL_BENCH_RUNS=1"},
			[]string{`warm / git status +[0-9.]+`, `fresh / worktree add\+remove +[0-9.]+`, `disk per idle pool worktree +[0-9.]+ MiB`}},
		{"bench-review.sh", []string{"FILES=300", "CHANGED=3", "RUNS=2"},
			[]string{`review, judged \(fake instant model\) +[0-9.]+ ms`, `review, verdict reused from the cache +[0-9.]+ ms`, `review with a worktree: [0-9]+ ms`}},
		{"bench-judge-cases.sh", []string{"COUNT=6", "JOBS=2"},
			[]string{`judge --cases: 6 answers, --jobs 2, 18 model calls`, `[0-9.]+ answers/s`, `tribunal [0-9.-]+ s: [0-9.-]+ ms CPU per answer`}},
		{"bench-candidates.sh", []string{"TRIBUNAL_BENCH_RUNS=1"},
			[]string{`candidates=3 +cost \$[0-9.]+ +wall median`}},
		{"bench-profiles.sh", []string{"TRIBUNAL_BENCH_CASES=2"},
			[]string{`profile light +tasks +4 +accepted +[0-9]+ +calls/accepted +[0-9.]+`, `profile thorough +tasks`}},
		{"bench-bigfile.sh", []string{"BIG_MB=2", "MAX_FILE_MB=1"},
			[]string{`review --base main \(2 MiB file added\) +[0-9.]+ s +[0-9.]+ MiB max RSS`, `not shown to the judges: big\.txt: 2\.0 MiB, over the per-file limit`,
				`left out of the task's snapshot, unread: untracked\.txt`, `\.git growth during the task +[0-9.]+ MiB`}},
		{"bench-receipts.sh", []string{"COUNT=1"},
			[]string{`1000-commit range: [0-9.]+ receipts written/s, [0-9.]+ verified/s`}},
		// The cold job npm-installs the pinned Claude Code from the registry.
		{"bench-action-install.sh", []string{"RUNS=1", "BENCH_GOCACHE=host"},
			[]string{`action install, cold \(empty tool cache\) +[0-9.]+ s`, `action install, warm \(tool cache, median of 1\) +[0-9.]+ s`}},
	}
	for _, b := range benches {
		t.Run(strings.TrimSuffix(b.script, ".sh"), func(t *testing.T) {
			cmd := exec.Command("bash", b.script)
			cmd.Env = append(append(os.Environ(), "BENCH_DIR="+t.TempDir(), "TMPDIR="+t.TempDir()), b.env...)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s failed after %s: %v\n%s", b.script, time.Since(start).Round(time.Millisecond), err, out)
			}
			for _, w := range b.want {
				if !regexp.MustCompile(w).Match(out) {
					t.Errorf("%s printed no line matching %q:\n%s", b.script, w, out)
				}
			}
		})
	}
}
