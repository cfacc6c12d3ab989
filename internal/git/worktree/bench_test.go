package worktree

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// TestTaskStartTimes measures what a task pays before its actor can start,
// side by side and interleaved on the repository named by
// TRIBUNAL_BENCH_REPO (scripts/bench-task-start.sh builds one of 50,000
// files): `git status`, `git worktree add` + `remove` (a bare checkout), a
// fresh task worktree (Create + Finish with the pool off) and a warm one
// (the pool on, a member already there: Create alone, which is what
// precedes the actor). Between tasks an "actor" changes a file and the
// change is committed, as a real task leaves its member, so each warm
// start has a task's change to undo. It reports medians and the ratios
// the pool is held to: warm ≤ 3× git status, fresh ≤ 1.2× worktree add.
// It is a measurement, not a test of behaviour: it runs only when asked.
func TestTaskStartTimes(t *testing.T) {
	repo := os.Getenv("TRIBUNAL_BENCH_REPO")
	if repo == "" {
		t.Skip("set TRIBUNAL_BENCH_REPO to a repository (scripts/bench-task-start.sh)")
	}
	runs := 7
	if n, err := fmt.Sscan(os.Getenv("TRIBUNAL_BENCH_RUNS"), &runs); n != 1 || err != nil {
		runs = 7
	}
	ctx := context.Background()
	git := projectkey.ExecGit("git", os.Environ())
	store := t.TempDir()
	fresh := &Manager{Git: git, Dir: filepath.Join(store, "fresh"), PID: os.Getpid(), Pool: Pool{Off: true}}
	warm := &Manager{Git: git, Dir: filepath.Join(store, "warm"), PID: os.Getpid(), Pool: Pool{Size: 1}}
	seq := 0
	var warmFinish []time.Duration
	// task times Create (to the actor) or Create + Finish (whole).
	task := func(m *Manager, whole bool) time.Duration {
		seq++
		start := time.Now()
		tk, err := m.Create(ctx, repo, fmt.Sprintf("01BENCH%019d", seq))
		if err != nil {
			t.Fatal(err)
		}
		toActor := time.Since(start)
		actorEdit(t, ctx, m, tk, seq)
		start = time.Now()
		if err := m.Finish(ctx, tk, false); err != nil {
			t.Fatal(err)
		}
		if !whole {
			warmFinish = append(warmFinish, time.Since(start))
			return toActor
		}
		return toActor + time.Since(start)
	}
	timed := func(f func()) time.Duration { start := time.Now(); f(); return time.Since(start) }
	cases := []struct {
		name string
		run  func() time.Duration
	}{
		{"git status", func() time.Duration {
			return timed(func() { command(t, repo, "git", "status", "--porcelain") })
		}},
		{"git worktree add + remove", func() time.Duration {
			p := filepath.Join(store, "plain")
			return timed(func() {
				command(t, repo, "git", "worktree", "add", "-q", "--detach", p)
				command(t, repo, "git", "worktree", "remove", "--force", p)
			})
		}},
		{"fresh task worktree", func() time.Duration { return task(fresh, true) }},
		{"warm task, to its actor", func() time.Duration { return task(warm, false) }},
	}
	task(warm, false) // the pool's first member
	warmFinish = nil
	times := make([][]time.Duration, len(cases))
	for i := 0; i < runs; i++ {
		for j := range cases {
			k := (i + j) % len(cases) // rotate the order each round
			times[k] = append(times[k], cases[k].run())
		}
	}
	med := make([]time.Duration, len(cases))
	for k, c := range cases {
		med[k] = logMedian(t, c.name, times[k])
	}
	logMedian(t, "warm task, its Finish", warmFinish)
	t.Logf("warm / git status           %.2f (target <= 3.0)", float64(med[3])/float64(med[0]))
	t.Logf("fresh / worktree add+remove %.2f (target <= 1.2)", float64(med[2])/float64(med[1]))
	u := warm.Usage()
	t.Logf("disk per idle pool worktree %.1f MiB", float64(u.Bytes)/float64(max(u.Members, 1))/(1<<20))
}

// actorEdit plays a task's actor: one file changed and one added, and the
// change committed, so that the member the task leaves differs from the
// next snapshot as a real task's does.
func actorEdit(t *testing.T, ctx context.Context, m *Manager, tk *Task, n int) {
	t.Helper()
	for _, name := range []string{"README.bench", fmt.Sprintf("actor-%d.txt", n)} {
		if err := os.WriteFile(filepath.Join(tk.Path, name), []byte(fmt.Sprintf("task %d\n", n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Commit(ctx, tk, "iteration 1"); err != nil {
		t.Fatal(err)
	}
}

func logMedian(t *testing.T, name string, d []time.Duration) time.Duration {
	t.Helper()
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	med := d[len(d)/2]
	t.Logf("%-28s median %8.1f ms  (min %.1f, max %.1f, %d runs)", name, ms(med), ms(d[0]), ms(d[len(d)-1]), len(d))
	return med
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func command(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
