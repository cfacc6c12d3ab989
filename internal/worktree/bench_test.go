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

	"github.com/tribunal-cc/tribunal/internal/projectkey"
)

// TestTaskStartTimes measures what a task pays before its actor can start,
// side by side and interleaved on the repository named by
// TRIBUNAL_BENCH_REPO (scripts/bench-task-start.sh builds one of 50,000
// files): `git status`, `git worktree add` + `remove` (a bare checkout), a
// fresh task worktree (Create + Finish with the pool off) and a warm one
// (the pool on, a member already there). It reports medians and the
// ratios the pool is held to: warm ≤ 3× git status, fresh ≤ 1.2× worktree
// add. It is a measurement, not a test of behaviour: it runs only when
// asked.
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
	task := func(m *Manager, n int) func() {
		return func() {
			tk, err := m.Create(ctx, repo, fmt.Sprintf("01BENCH%019d", n))
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Finish(ctx, tk, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	seq := 0
	cases := []struct {
		name string
		run  func()
	}{
		{"git status", func() { command(t, repo, "git", "status", "--porcelain") }},
		{"git worktree add + remove", func() {
			p := filepath.Join(store, "plain")
			command(t, repo, "git", "worktree", "add", "-q", "--detach", p)
			command(t, repo, "git", "worktree", "remove", "--force", p)
		}},
		{"fresh task worktree", func() { seq++; task(fresh, seq)() }},
		{"warm task worktree", func() { seq++; task(warm, seq)() }},
	}
	seq++
	task(warm, seq)() // the pool's first member
	times := make([][]time.Duration, len(cases))
	for i := 0; i < runs; i++ {
		for j := range cases {
			c := cases[(i+j)%len(cases)] // rotate the order each round
			k := (i + j) % len(cases)
			start := time.Now()
			c.run()
			times[k] = append(times[k], time.Since(start))
		}
	}
	med := make([]time.Duration, len(cases))
	for k, c := range cases {
		slices.Sort(times[k])
		med[k] = times[k][len(times[k])/2]
		t.Logf("%-28s median %8.1f ms  (min %.1f, max %.1f, %d runs)", c.name, ms(med[k]), ms(times[k][0]), ms(times[k][len(times[k])-1]), runs)
	}
	t.Logf("warm / git status           %.2f (target <= 3.0)", float64(med[3])/float64(med[0]))
	t.Logf("fresh / worktree add+remove %.2f (target <= 1.2)", float64(med[2])/float64(med[1]))
	u := warm.Usage()
	t.Logf("disk per idle pool worktree %.1f MiB", float64(u.Bytes)/float64(max(u.Members, 1))/(1<<20))
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
