package projectkey

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// gitEnv is an environment that isolates git from the developer's own
// configuration: an empty HOME, no system config, fixed identity.
func gitEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") || name == "HOME" || name == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	)
}

// gitBin returns the real git, skipping the test when there is none.
func gitBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return p
}

// tgit runs the real git for fixture setup and as the reference oracle.
type tgit struct {
	t   *testing.T
	bin string
	env []string
}

func newTGit(t *testing.T) *tgit {
	t.Helper()
	return &tgit{t: t, bin: gitBin(t), env: gitEnv(t)}
}

// try runs git in dir and returns trimmed stdout and any error.
func (g *tgit) try(dir string, args ...string) (string, error) {
	g.t.Helper()
	cmd := exec.Command(g.bin, args...)
	cmd.Dir = dir
	cmd.Env = g.env
	out, err := cmd.Output()
	return strings.TrimRight(string(out), "\n"), err
}

// run runs git in dir and fails the test on error.
func (g *tgit) run(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.try(dir, args...)
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		g.t.Fatalf("git %v in %s: %s", args, dir, msg)
	}
	return out
}

// runner is the production runner wired to the isolated environment.
func (g *tgit) runner() GitRunner {
	return ExecGit(g.bin, g.env)
}

// initRepo creates a repository with one commit under parent/name and
// returns its physical path.
func (g *tgit) initRepo(parent, name string) string {
	g.t.Helper()
	dir := filepath.Join(parent, name)
	g.run(parent, "init", "-q", "-b", "main", dir)
	testkit.WriteFile(g.t, filepath.Join(dir, "README"), "hello\n")
	g.run(dir, "add", "README")
	g.run(dir, "commit", "-q", "-m", "init")
	return physical(g.t, dir)
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
	g.run(base, "init", "-q", "--bare", f.bare)

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
