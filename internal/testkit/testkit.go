// Package testkit is the one home of test support: its subpackages hold the
// fakes (fakeclaude, fakeapi, fakellm, fakegithub), the shared testscript
// commands, the test tiers and the house-rule tests, and this package holds
// the helpers many packages' tests need — a file written in one call, a
// throwaway git repository, and the user pages whose examples tests keep
// true — so that no package keeps its own copy.
//
// Only tests import testkit; a test in this package fails if product code
// does.
package testkit

import (
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
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
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

// Repo is a test's git repository: its work tree and the environment its
// git commands run in.
type Repo struct {
	t   testing.TB
	Dir string
	Env []string
}

// GitRepo makes an empty repository on branch main in a fresh temporary
// directory, with GitEnv's environment; it skips the test where git is
// not installed.
func GitRepo(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := &Repo{t: t, Dir: t.TempDir(), Env: GitEnv(t)}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git with args in the repository and returns its trimmed
// standard output; a failure fails the test with git's output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s%s", args, err, out, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// WriteFile writes content to the slash-separated path rel inside the
// work tree (see the package's WriteFile).
func (r *Repo) WriteFile(rel, content string) {
	r.t.Helper()
	WriteFile(r.t, filepath.Join(r.Dir, filepath.FromSlash(rel)), content)
}

// Commit stages every change in the work tree and commits it with msg.
func (r *Repo) Commit(msg string) {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
}
