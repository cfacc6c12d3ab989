package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestRepositoryShapes(t *testing.T) {
	ctx := context.Background()
	t.Run("no commits", func(t *testing.T) {
		f := newFixture(t)
		dir := filepath.Join(t.TempDir(), "r")
		f.git(t.TempDir(), "init", "-q", dir)
		testkit.WriteFile(t, filepath.Join(dir, "x.txt"), "x\n")
		task, err := f.m.Create(ctx, dir, "01UNBORN")
		if err != nil {
			t.Fatal(err)
		}
		if read(t, filepath.Join(task.Path, "x.txt")) != "x\n" {
			t.Error("untracked file of an unborn repository missing")
		}
		testkit.WriteFile(t, filepath.Join(task.Path, "y.txt"), "y\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied || read(t, filepath.Join(dir, "y.txt")) != "y\n" {
			t.Fatalf("apply: %+v %v", res, err)
		}
		if _, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "HEAD").Output(); err == nil {
			t.Error("the user's unborn branch got a commit")
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("detached HEAD and a worktree of a worktree", func(t *testing.T) {
		f := newFixture(t)
		repo := f.repo()
		f.git(repo, "stash", "-u", "-q")
		f.git(repo, "checkout", "-q", "--detach")
		linked := filepath.Join(t.TempDir(), "linked")
		f.git(repo, "worktree", "add", "-q", "--detach", linked)
		testkit.WriteFile(t, filepath.Join(linked, "b.txt"), "linked edit\n")
		task, err := f.m.Create(ctx, linked, "01LINKED")
		if err != nil {
			t.Fatal(err)
		}
		if read(t, filepath.Join(task.Path, "b.txt")) != "linked edit\n" {
			t.Error("the linked worktree's edit is missing")
		}
		if f.git(linked, "rev-parse", "--abbrev-ref", "HEAD") != "HEAD" {
			t.Error("the user's HEAD is no longer detached")
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("bare repository", func(t *testing.T) {
		f := newFixture(t)
		dir := filepath.Join(t.TempDir(), "bare.git")
		f.git(t.TempDir(), "init", "-q", "--bare", dir)
		if err := f.m.Check(ctx, dir); err == nil || !strings.Contains(err.Error(), "not a git work tree") {
			t.Errorf("Check(bare) = %v", err)
		}
	})
	t.Run("no repository", func(t *testing.T) {
		f := newFixture(t)
		if err := f.m.Check(ctx, t.TempDir()); err == nil {
			t.Error("Check outside a repository succeeded")
		}
	})
	t.Run("submodule", func(t *testing.T) {
		f := newFixture(t)
		sub := f.repo()
		f.git(sub, "commit", "-q", "-am", "sub")
		repo := f.repo()
		f.git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mods/sub")
		task, err := f.m.Create(ctx, repo, "01SUBMOD")
		if err != nil {
			t.Fatal(err)
		}
		if len(task.Submodules) != 1 || task.Submodules[0] != "mods/sub" {
			t.Errorf("submodules = %v", task.Submodules)
		}
		testkit.WriteFile(t, filepath.Join(task.Path, "top.txt"), "t\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply beside a submodule: %+v %v", res, err)
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("git-lfs", func(t *testing.T) {
		if _, err := exec.LookPath("git-lfs"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("git-lfs is not installed (.ci/run installs it)")
			}
			t.Skip("git-lfs is not installed; apt-get install git-lfs to run this test")
		}
		f := newFixture(t)
		repo := f.repo()
		f.git(repo, "lfs", "install", "--local")
		f.git(repo, "lfs", "track", "*.bin")
		testkit.WriteFile(t, filepath.Join(repo, "data.bin"), "first version\x00binary\n")
		f.git(repo, "add", ".gitattributes", "data.bin")
		f.git(repo, "commit", "-q", "-m", "lfs")
		if out := f.git(repo, "show", "HEAD:data.bin"); !strings.HasPrefix(out, "version https://git-lfs") {
			t.Fatalf("not stored as an LFS pointer: %q", out)
		}
		task, err := f.m.Create(ctx, repo, "01LFS")
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(task.Path, "data.bin")); got != "first version\x00binary\n" {
			t.Errorf("the task worktree holds %q, not the LFS content", got)
		}
		testkit.WriteFile(t, filepath.Join(task.Path, "data.bin"), "second version\x00binary\n")
		f.m.Commit(ctx, task, "it")
		if out := f.git(repo, "show", task.Head+":data.bin"); !strings.HasPrefix(out, "version https://git-lfs") {
			t.Errorf("the iteration commit does not store an LFS pointer: %q", out)
		}
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply an LFS change: %+v %v", res, err)
		}
		if got := read(t, filepath.Join(repo, "data.bin")); got != "second version\x00binary\n" {
			t.Errorf("data.bin = %q", got)
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("clean and smudge filters (as git-lfs uses them)", func(t *testing.T) {
		f := newFixture(t)
		repo := f.repo()
		// A filter that stores upper case and checks out lower case.
		f.git(repo, "config", "filter.up.clean", "tr a-z A-Z")
		f.git(repo, "config", "filter.up.smudge", "tr A-Z a-z")
		testkit.WriteFile(t, filepath.Join(repo, ".gitattributes"), "*.up filter=up\n")
		testkit.WriteFile(t, filepath.Join(repo, "f.up"), "hello\n")
		task, err := f.m.Create(ctx, repo, "01FILTER")
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(task.Path, "f.up")); got != "hello\n" {
			t.Errorf("the task worktree sees %q, not the user's smudged content", got)
		}
		testkit.WriteFile(t, filepath.Join(task.Path, "f.up"), "hello\nworld\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply through a filter: %+v %v", res, err)
		}
		if got := read(t, filepath.Join(repo, "f.up")); got != "hello\nworld\n" {
			t.Errorf("f.up = %q", got)
		}
		f.m.Finish(ctx, task, false)
	})
}
