package worktree

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

type fixture struct {
	t   testing.TB
	g   *testkit.Git
	env []string
	m   *Manager
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	g := testkit.NewGit(t)
	env := g.Env
	f := &fixture{t: t, g: g, env: env}
	// The pool is off here: these tests pin what a fresh worktree does;
	// pool_test.go turns it on.
	f.m = &Manager{Git: projectkey.ExecGit("git", env), Dir: filepath.Join(t.TempDir(), "worktrees"), PID: os.Getpid(), Pool: Pool{Off: true}}
	return f
}

// git runs git in dir (testkit's, in the fixture's environment) and
// returns its trimmed standard output.
func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	return strings.TrimSpace(f.g.Run(dir, args...))
}

func read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// repo makes a repository with a commit, then a dirty state: a staged
// edit, an unstaged edit, an untracked file and an ignored file.
func (f *fixture) repo() string {
	dir := f.g.Init(filepath.Join(f.t.TempDir(), "repo")).Dir
	testkit.WriteFile(f.t, filepath.Join(dir, "a.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	testkit.WriteFile(f.t, filepath.Join(dir, "b.txt"), "b\n")
	testkit.WriteFile(f.t, filepath.Join(dir, ".gitignore"), "ignored/\n")
	f.git(dir, "add", "-A")
	f.git(dir, "commit", "-q", "-m", "init")
	testkit.WriteFile(f.t, filepath.Join(dir, "b.txt"), "b staged\n")
	f.git(dir, "add", "b.txt")
	testkit.WriteFile(f.t, filepath.Join(dir, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	testkit.WriteFile(f.t, filepath.Join(dir, "new.txt"), "untracked\n")
	testkit.WriteFile(f.t, filepath.Join(dir, "ignored", "x"), "secret\n")
	return dir
}

// state is everything of the user's repository that must not change: the
// status, the index file's bytes, HEAD, the branch list, the stash, and
// every file's content.
func (f *fixture) state(dir string) string {
	f.t.Helper()
	var b strings.Builder
	b.WriteString(f.git(dir, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=all") + "\n")
	idx, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	b.Write(idx)
	b.WriteString(f.git(dir, "rev-parse", "HEAD") + "\n")
	// Task refs live outside refs/heads: the user's branches stay exactly
	// as they were.
	b.WriteString(f.git(dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/stash") + "\n")
	var paths []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() && info.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !info.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		b.WriteString(p + "\n" + read(f.t, p))
	}
	return b.String()
}
