package gitstate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// tgit drives the real git in an isolated environment (empty HOME, no system
// config, fixed identity) for fixtures and as the oracle.
type tgit struct {
	t    testing.TB
	bin  string
	env  []string
	home string
}

func newTGit(t testing.TB) *tgit {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") || name == "HOME" || name == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	)
	return &tgit{t: t, bin: bin, env: env, home: home}
}

func (g *tgit) runner() projectkey.GitRunner { return projectkey.ExecGit(g.bin, g.env) }

// run runs git in dir, failing the test on error, and returns raw stdout.
func (g *tgit) run(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command(g.bin, args...)
	cmd.Dir = dir
	cmd.Env = g.env
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		g.t.Fatalf("git %v in %s: %s", args, dir, msg)
	}
	return string(out)
}

// emptyRepo initialises a repository with no commits and returns its path.
func (g *tgit) emptyRepo() string {
	g.t.Helper()
	dir := filepath.Join(g.t.TempDir(), "repo")
	g.run(g.t.TempDir(), "init", "-q", "-b", "main", dir)
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		g.t.Fatal(err)
	}
	return p
}

// repo returns a repository whose single commit holds tracked.txt, other.txt
// and a .gitignore ignoring node_modules/ and *.log.
func (g *tgit) repo() string {
	g.t.Helper()
	dir := g.emptyRepo()
	write(g.t, dir, "tracked.txt", "one\ntwo\nthree\n")
	write(g.t, dir, "other.txt", "other\n")
	write(g.t, dir, ".gitignore", "node_modules/\n*.log\n")
	g.commitAll(dir, "init")
	return dir
}

func (g *tgit) commitAll(dir, msg string) {
	g.t.Helper()
	g.run(dir, "add", "-A")
	g.run(dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func (g *tgit) head(dir string) string {
	g.t.Helper()
	return strings.TrimSpace(g.run(dir, "rev-parse", "HEAD"))
}

// write creates dir/rel with content, making parent directories.
func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func status(t testing.TB, g *tgit, dir string) State {
	t.Helper()
	st, err := Status(context.Background(), g.runner(), dir)
	if err != nil {
		t.Fatalf("Status(%q): %v", dir, err)
	}
	return st
}

func fingerprint(t testing.TB, g *tgit, dir string, extra ...[]byte) string {
	t.Helper()
	fp, err := Fingerprint(context.Background(), g.runner(), dir, status(t, g, dir), extra...)
	if err != nil {
		t.Fatalf("Fingerprint(%q): %v", dir, err)
	}
	return fp
}
