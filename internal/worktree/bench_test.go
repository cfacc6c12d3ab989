package worktree

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// benchRepo is a repository of n small files, committed, with a few
// uncommitted edits and untracked files.
func benchRepo(b testing.TB, f *fixture, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "repo")
	f.git(b.TempDir(), "init", "-q", dir)
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("package d\n\nconst X%d = %d\n", i, i)), 0o644)
	}
	f.git(dir, "add", "-A")
	f.git(dir, "commit", "-q", "-m", "init")
	for i := range 10 {
		os.WriteFile(filepath.Join(dir, "d00", fmt.Sprintf("f%05d.go", i*50)), []byte("edited\n"), 0o644)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%d.txt", i)), []byte("new\n"), 0o644)
	}
	return dir
}

// BenchmarkSnapshot measures what isolation adds to a task's start and end
// (worktree, snapshot, checkout, removal) on a 3000-file repository;
// BenchmarkGitStatus is the yardstick: one `git status` of the same tree.
func BenchmarkSnapshot(b *testing.B) {
	f := newFixture(b)
	repo := benchRepo(b, f, 3000)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		task, err := f.m.Create(ctx, repo, fmt.Sprintf("01BENCH%05d", i))
		if err != nil {
			b.Fatal(err)
		}
		if err := f.m.Finish(ctx, task, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGitStatus(b *testing.B) {
	f := newFixture(b)
	repo := benchRepo(b, f, 3000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command("git", "--no-optional-locks", "status", "--porcelain")
		cmd.Dir = repo
		cmd.Env = f.env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}
