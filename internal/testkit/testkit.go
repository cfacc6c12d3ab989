// Package testkit is the one home of test support: its subpackages hold the
// fakes (fakeclaude, fakeapi, fakellm, fakegithub), the shared testscript
// commands, the test tiers and the house-rule tests, and this package holds
// the helpers every package's tests need — files written in one call, the
// real git in an isolated environment with throwaway repositories, and
// the user pages whose examples tests keep true — so that no package
// keeps its own copy.
//
// Only tests import testkit; a test in this package fails if product code
// does.
package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFile writes content to path, making its parent directories, and
// fails the test on any error. Directories are 0700 and files 0600, the
// modes tribunal itself writes, so that readers that refuse group- or
// world-accessible files accept what a test wrote.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	WriteFileMode(t, path, content, 0o600)
}

// WriteFileMode is WriteFile with the file's mode given, for scripts and
// for tests of what a mode means (an executable, a file others may read).
// The mode is set after writing, so the umask does not narrow it.
func WriteFileMode(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TempFile writes content to a file called name in a fresh temporary
// directory and returns its path.
func TempFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	WriteFile(t, path, content)
	return path
}

// WriteFiles writes each slash-separated path → content of files under
// dir, as WriteFile does.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
	}
}

// GitEnv is an environment for git child processes that ignores the
// user's and the system's git configuration (HOME is a fresh temporary
// directory, no GIT_* variable is inherited) and names a fixed author, so
// that a test's repository behaves the same on every machine.
func GitEnv(t testing.TB) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") || name == "HOME" || name == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com")
}

// Git runs the real git with GitEnv's environment in any directory, for
// tests that hold several repositories at once (clones, linked worktrees,
// bare remotes) or use git as the oracle their code must agree with.
type Git struct {
	t    testing.TB
	Bin  string   // the git executable found on PATH
	Env  []string // GitEnv's environment, for runners built on it
	Home string   // the HOME in Env, for tests of the user's git configuration
}

// NewGit finds git and makes GitEnv's environment; it skips the test where
// git is not installed.
func NewGit(t testing.TB) *Git {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	g := &Git{t: t, Bin: bin, Env: GitEnv(t)}
	for _, kv := range g.Env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			g.Home = v
		}
	}
	return g
}

// Try runs git with args in dir and returns its standard output as git
// wrote it; a failure's error carries git's standard error.
func (g *Git) Try(dir string, args ...string) (string, error) {
	return g.TryInput(dir, "", args...)
}

// TryInput is Try with stdin as git's standard input (fast-import, apply).
func (g *Git) TryInput(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command(g.Bin, args...)
	cmd.Dir, cmd.Env = dir, g.Env
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("git %v in %s: %w\n%s", args, dir, err, stderr.String())
	}
	return string(out), nil
}

// Run is Try that fails the test when git fails.
func (g *Git) Run(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.Try(dir, args...)
	if err != nil {
		g.t.Fatal(err)
	}
	return out
}

// Init makes a repository on branch main at dir (created if missing), with
// extra flags for git init such as --bare, and returns it.
func (g *Git) Init(dir string, flags ...string) *Repo {
	g.t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		g.t.Fatal(err)
	}
	g.Run(dir, append(append([]string{"init", "-q", "-b", "main"}, flags...), dir)...)
	return g.Repo(dir)
}

// Repo is the repository git already holds at dir: a clone, a linked
// worktree.
func (g *Git) Repo(dir string) *Repo {
	return &Repo{t: g.t, g: g, Dir: dir, Env: g.Env}
}

// Repo is a test's git repository: its work tree and the environment its
// git commands run in.
type Repo struct {
	t   testing.TB
	g   *Git
	Dir string
	Env []string
}

// GitRepo makes an empty repository on branch main in a fresh temporary
// directory, with GitEnv's environment; it skips the test where git is
// not installed.
func GitRepo(t testing.TB) *Repo {
	t.Helper()
	return NewGit(t).Init(t.TempDir())
}

// Git runs git with args in the repository and returns its trimmed
// standard output; a failure fails the test with git's output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	return strings.TrimSpace(r.g.Run(r.Dir, args...))
}

// WriteFile writes content to the slash-separated path rel inside the
// work tree (see the package's WriteFile).
func (r *Repo) WriteFile(rel, content string) {
	r.t.Helper()
	WriteFile(r.t, filepath.Join(r.Dir, filepath.FromSlash(rel)), content)
}

// Commit stages every change in the work tree, commits it with msg and
// returns the new commit's hash.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
