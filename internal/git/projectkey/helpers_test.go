package projectkey

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// tgit is testkit's Git with this package's fixtures; run and try trim
// git's final newline, so that answers compare with paths directly.
type tgit struct {
	*testkit.Git
	t *testing.T
}

func newTGit(t *testing.T) *tgit {
	t.Helper()
	return &tgit{Git: testkit.NewGit(t), t: t}
}

// try runs git in dir and returns trimmed stdout and any error.
func (g *tgit) try(dir string, args ...string) (string, error) {
	out, err := g.Try(dir, args...)
	return strings.TrimRight(out, "\n"), err
}

// run runs git in dir and fails the test on error.
func (g *tgit) run(dir string, args ...string) string {
	g.t.Helper()
	return strings.TrimRight(g.Run(dir, args...), "\n")
}

// runner is the production runner wired to the isolated environment.
func (g *tgit) runner() GitRunner {
	return ExecGit(g.Bin, g.Env)
}

// initRepo creates a repository with one commit under parent/name and
// returns its physical path.
func (g *tgit) initRepo(parent, name string) string {
	g.t.Helper()
	r := g.Init(filepath.Join(parent, name))
	r.WriteFile("README", "hello\n")
	r.Commit("init")
	return physical(g.t, r.Dir)
}

// toplevel is git's answer for dir, or "" when git says it is no work tree.
func (g *tgit) toplevel(dir string) string {
	g.t.Helper()
	out, err := g.try(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	return out
}

// commonDir is git's common dir for dir, made absolute and physical.
func (g *tgit) commonDir(dir string) string {
	g.t.Helper()
	c := g.run(dir, "rev-parse", "--git-common-dir")
	if !filepath.IsAbs(c) {
		c = filepath.Join(physical(g.t, dir), c)
	}
	return physical(g.t, c)
}

func physical(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatalf("EvalSymlinks(%q): %v", p, err)
	}
	return r
}

// fixture is one layout holding every repository shape the tests need.
type fixture struct {
	base      string // physical temp dir holding everything
	main      string // main work tree, with origin unset
	linked    string // linked worktree of main
	super     string // superproject
	sub       string // submodule work tree inside super, origin removed
	bare      string // bare repository
	plain     string // directory in no repository
	linkToSub string // symlink to main/src/deep
}

func newFixture(t *testing.T, g *tgit) fixture {
	t.Helper()
	base := physical(t, t.TempDir())
	f := fixture{base: base}
	f.main = g.initRepo(base, "main")
	testkit.WriteFile(t, filepath.Join(f.main, "src", "deep", "x.go"), "package x\n")
	g.run(f.main, "add", ".")
	g.run(f.main, "commit", "-q", "-m", "deep")

	f.linked = filepath.Join(base, "linked")
	g.run(f.main, "worktree", "add", "-q", "-b", "feature", f.linked)
	f.linked = physical(t, f.linked)

	lib := g.initRepo(base, "lib")
	f.super = g.initRepo(base, "super")
	g.run(f.super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
	g.run(f.super, "commit", "-q", "-m", "add submodule")
	f.sub = physical(t, filepath.Join(f.super, "vendor", "lib"))
	g.run(f.sub, "remote", "remove", "origin")

	f.bare = filepath.Join(base, "bare.git")
	g.Init(f.bare, "--bare")

	f.plain = filepath.Join(base, "plain", "dir")
	if err := os.MkdirAll(f.plain, 0o755); err != nil {
		t.Fatal(err)
	}

	f.linkToSub = filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(f.main, "src", "deep"), f.linkToSub); err != nil {
		t.Fatal(err)
	}
	return f
}

// fakeRunner answers `remote get-url origin` with out/err and records calls.
type fakeRunner struct {
	out   string
	err   error
	calls [][]string
	dirs  []string
}

func (f *fakeRunner) run(_ context.Context, dir string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, args)
	f.dirs = append(f.dirs, dir)
	return []byte(f.out), f.err
}
