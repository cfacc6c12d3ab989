package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// treeOf is the tree a commit records.
func (f *fixture) treeOf(dir, commit string) string {
	f.t.Helper()
	return f.git(dir, "rev-parse", commit+"^{tree}")
}

// files lists every file under dir (not .git) with its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == ".git" {
			if info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out[rel] = read(t, p)
		}
		return nil
	})
	return out
}

// TestPoolReusesAWorktreeAsIfFresh: a second task gets the first task's
// worktree back, holding exactly what a fresh worktree would — the new
// snapshot, none of the previous actor's edits, untracked or ignored files —
// and the same snapshot tree.
func TestPoolReusesAWorktreeAsIfFresh(t *testing.T) {
	f := newFixture(t)
	f.m.Pool = Pool{}
	ctx := context.Background()
	repo := f.repo()

	first, err := f.m.Create(ctx, repo, "01FIRST")
	if err != nil {
		t.Fatal(err)
	}
	if first.PoolSlot == nil || *first.PoolSlot != 0 {
		t.Fatalf("first task not in slot 0: %+v", first.PoolSlot)
	}
	testkit.WriteFile(t, filepath.Join(first.Path, "a.txt"), "the actor was here\n")
	testkit.WriteFile(t, filepath.Join(first.Path, "junk", "untracked.txt"), "left over\n")
	testkit.WriteFile(t, filepath.Join(first.Path, "ignored", "build.out"), "built\n")
	if _, err := f.m.Commit(ctx, first, "iteration 1"); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Finish(ctx, first, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(first.Path, "a.txt")); err != nil {
		t.Fatalf("the finished task's worktree was not kept for the next: %v", err)
	}

	testkit.WriteFile(t, filepath.Join(repo, "b.txt"), "the user edited b\n")
	second, err := f.m.Create(ctx, repo, "01SECOND")
	if err != nil {
		t.Fatal(err)
	}
	if second.Path != first.Path || !second.Warm || first.Warm {
		t.Errorf("second task in %s (warm %v), want the pool member %s reused", second.Path, second.Warm, first.Path)
	}
	fresh := &Manager{Git: f.m.Git, Dir: filepath.Join(t.TempDir(), "fresh"), PID: os.Getpid(), Pool: Pool{Off: true}}
	cold, err := fresh.Create(ctx, repo, "01COLD")
	if err != nil {
		t.Fatal(err)
	}
	if w, c := f.treeOf(repo, second.Snapshot), f.treeOf(repo, cold.Snapshot); w != c {
		t.Errorf("warm snapshot tree %s, fresh %s", w, c)
	}
	warmFiles, coldFiles := files(t, second.Path), files(t, cold.Path)
	if len(warmFiles) != len(coldFiles) {
		t.Errorf("warm worktree holds %v\nfresh holds %v", keys(warmFiles), keys(coldFiles))
	}
	for p, c := range coldFiles {
		if warmFiles[p] != c {
			t.Errorf("%s: warm %q, fresh %q", p, warmFiles[p], c)
		}
	}
	if st := f.git(second.Path, "status", "--porcelain", "--ignored", "--untracked-files=all"); st != "" {
		t.Errorf("the reused worktree is not clean:\n%s", st)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPoolConcurrentTasks: tasks running at once never share a member;
// beyond the pool's size a task gets a fresh worktree, removed at the end.
func TestPoolConcurrentTasks(t *testing.T) {
	f := newFixture(t)
	f.m.Pool = Pool{Size: 2}
	ctx := context.Background()
	repo := f.repo()
	var tasks []*Task
	for _, id := range []string{"01A", "01B", "01C"} {
		task, err := f.m.Create(ctx, repo, id)
		if err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, task)
	}
	if tasks[0].Path == tasks[1].Path || tasks[0].PoolSlot == nil || tasks[1].PoolSlot == nil {
		t.Fatalf("two running tasks share or lack a member: %s %s", tasks[0].Path, tasks[1].Path)
	}
	if tasks[2].PoolSlot != nil || filepath.Base(tasks[2].Path) != "01C" {
		t.Fatalf("the third task should get a fresh worktree, got %s", tasks[2].Path)
	}
	for _, task := range tasks {
		if err := f.m.Finish(ctx, task, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(tasks[2].Path); err == nil {
		t.Error("the fresh worktree outside the pool was not removed")
	}
	for _, task := range tasks[:2] {
		if _, err := os.Stat(task.Path); err != nil {
			t.Errorf("pool member %s was removed", task.Path)
		}
	}
}

// TestTasksStartAtOnce: tasks of one repository started at the same time
// (best-of-N candidates) all get a worktree, from two managers (two
// processes) as from one. Unserialised, git's own worktree commands race
// on .git/worktrees: one task's prune or remove deletes the directory, or
// an entry still being written, under another's add.
func TestTasksStartAtOnce(t *testing.T) {
	f := newFixture(t)
	f.m.Pool = Pool{Size: 2}
	other := *f.m
	ctx := context.Background()
	repo := f.repo()
	for round := 0; round < 10; round++ {
		var wg sync.WaitGroup
		errs := make([]error, 12)
		for i := range errs {
			m := f.m
			if i%2 == 1 {
				m = &other
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				task, err := m.Create(ctx, repo, fmt.Sprintf("01R%dT%d", round, i))
				if err == nil {
					err = m.Finish(ctx, task, false)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, task %d: %v", round, i, err)
			}
		}
	}
}

// TestPoolRebuildsWhatItCannotTrust: a member left by a crashed run is
// reset, and one that is damaged (its .git replaced) is rebuilt; either
// way the task starts from its own snapshot.
func TestPoolRebuildsWhatItCannotTrust(t *testing.T) {
	for _, damage := range []string{"crash", "dotgit replaced", "directory gone"} {
		t.Run(damage, func(t *testing.T) {
			f := newFixture(t)
			f.m.Pool = Pool{}
			ctx := context.Background()
			repo := f.repo()
			first, err := f.m.Create(ctx, repo, "01FIRST")
			if err != nil {
				t.Fatal(err)
			}
			testkit.WriteFile(t, filepath.Join(first.Path, "a.txt"), "dirty\n")
			testkit.WriteFile(t, filepath.Join(first.Path, "stray.txt"), "stray\n")
			switch damage {
			case "dotgit replaced":
				os.Remove(filepath.Join(first.Path, ".git"))
				f.git(first.Path, "init", "-q")
			case "directory gone":
				os.RemoveAll(first.Path)
			}
			first.unlock() // the process died: the kernel drops its lock
			second, err := f.m.Create(ctx, repo, "01SECOND")
			if err != nil {
				t.Fatal(err)
			}
			if second.Path != first.Path {
				t.Errorf("second task in %s, want slot 0 %s", second.Path, first.Path)
			}
			if wantWarm := damage == "crash"; second.Warm != wantWarm {
				t.Errorf("warm %v, want %v: a crashed run's member is reset, a damaged one rebuilt", second.Warm, wantWarm)
			}
			if got := read(t, filepath.Join(second.Path, "a.txt")); got != read(t, filepath.Join(repo, "a.txt")) {
				t.Errorf("a.txt is %q, not the user's", got)
			}
			if _, err := os.Stat(filepath.Join(second.Path, "stray.txt")); err == nil {
				t.Error("the crashed run's stray file survived")
			}
			if st := f.git(second.Path, "status", "--porcelain", "--ignored", "--untracked-files=all"); st != "" {
				t.Errorf("not clean:\n%s", st)
			}
			if list := f.git(repo, "worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 2 {
				t.Errorf("worktrees:\n%s", list)
			}
		})
	}
}

// TestPoolKeepsIgnoredOnlyWhenAsked: build outputs survive between tasks
// with KeepIgnored, and are deleted otherwise.
func TestPoolKeepsIgnoredOnlyWhenAsked(t *testing.T) {
	for _, keep := range []bool{false, true} {
		f := newFixture(t)
		f.m.Pool = Pool{KeepIgnored: keep}
		ctx := context.Background()
		repo := f.repo()
		first, err := f.m.Create(ctx, repo, "01FIRST")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(first.Path, "ignored", "x")); err == nil {
			t.Fatal("the user's ignored file was copied into the task worktree")
		}
		testkit.WriteFile(t, filepath.Join(first.Path, "ignored", "cache.bin"), "warm\n")
		f.m.Finish(ctx, first, false)
		second, err := f.m.Create(ctx, repo, "01SECOND")
		if err != nil {
			t.Fatal(err)
		}
		_, err = os.Stat(filepath.Join(second.Path, "ignored", "cache.bin"))
		if kept := err == nil; kept != keep {
			t.Errorf("KeepIgnored %v: the ignored build output kept = %v", keep, kept)
		}
	}
}

// TestPoolServesOnlyItsRepository: two clones that share a project
// directory (same origin) never get each other's worktrees.
func TestPoolServesOnlyItsRepository(t *testing.T) {
	f := newFixture(t)
	f.m.Pool = Pool{}
	ctx := context.Background()
	one := f.repo()
	two := filepath.Join(t.TempDir(), "clone")
	f.git(t.TempDir(), "clone", "-q", one, two)
	testkit.WriteFile(t, filepath.Join(two, "only-in-two.txt"), "two\n")
	a, err := f.m.Create(ctx, one, "01ONE")
	if err != nil {
		t.Fatal(err)
	}
	f.m.Finish(ctx, a, false)
	b, err := f.m.Create(ctx, two, "01TWO")
	if err != nil {
		t.Fatal(err)
	}
	if b.Path == a.Path {
		t.Fatalf("the second clone got the first clone's worktree %s", a.Path)
	}
	if got := f.git(b.Path, "rev-parse", "--path-format=absolute", "--git-common-dir"); got != filepath.Join(two, ".git") {
		t.Errorf("the worktree belongs to %s", got)
	}
	if _, err := os.Stat(filepath.Join(b.Path, "only-in-two.txt")); err != nil {
		t.Error("the second clone's own file is missing")
	}
}

// TestPoolPrune: idle members past MaxIdle or beyond the size go; a member
// in use never does; a later discard of a kept task never touches the
// member another task now uses.
func TestPoolPrune(t *testing.T) {
	f := newFixture(t)
	f.m.Pool = Pool{Size: 2, MaxIdle: time.Hour}
	ctx := context.Background()
	repo := f.repo()
	a, _ := f.m.Create(ctx, repo, "01A")
	b, _ := f.m.Create(ctx, repo, "01B")
	testkit.WriteFile(t, filepath.Join(b.Path, "a.txt"), "changed\n")
	if _, err := f.m.Commit(ctx, b, "iteration 1"); err != nil {
		t.Fatal(err)
	}
	f.m.Finish(ctx, b, true) // kept: its ref holds the change
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(b.Path+".lock", old, old)
	os.Chtimes(a.Path+".lock", old, old)
	if n := f.m.PrunePool(ctx, repo, false); n != 1 {
		t.Errorf("pruned %d members, want 1 (the idle one; the other is in use)", n)
	}
	if _, err := os.Stat(a.Path); err != nil {
		t.Error("the member in use was removed")
	}
	if _, err := os.Stat(b.Path); err == nil {
		t.Error("the member idle for two hours is still there")
	}
	// Slot 1 is free again: a new task takes it; discarding the kept task
	// (whose record names the same path) must leave that task's worktree.
	c, err := f.m.Create(ctx, repo, "01C")
	if err != nil || c.Path != b.Path {
		t.Fatalf("new task in %s (%v), want slot 1 %s", c.Path, err, b.Path)
	}
	kept, err := f.m.Load("01B")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.m.Discard(ctx, kept); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Path, "a.txt")); err != nil {
		t.Error("discarding a kept task removed the worktree a running task uses")
	}
	if u := f.m.Usage(); u.Members != 2 || u.Bytes == 0 {
		t.Errorf("usage %+v", u)
	}
	f.m.Finish(ctx, a, false)
	f.m.Finish(ctx, c, false)
	if n := f.m.PrunePool(ctx, repo, true); n != 2 {
		t.Errorf("gc pruned %d, want every idle member (2)", n)
	}
}
