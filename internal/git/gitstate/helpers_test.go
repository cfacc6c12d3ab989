package gitstate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// tgit is testkit's Git with this package's fixtures: the real git in an
// isolated environment, for fixtures and as the oracle.
type tgit struct {
	*testkit.Git
	t testing.TB
}

func newTGit(t testing.TB) *tgit {
	t.Helper()
	return &tgit{Git: testkit.NewGit(t), t: t}
}

func (g *tgit) runner() projectkey.GitRunner { return projectkey.ExecGit(g.Bin, g.Env) }

// emptyRepo initialises a repository with no commits and returns its path.
func (g *tgit) emptyRepo() string {
	g.t.Helper()
	p, err := filepath.EvalSymlinks(g.Init(filepath.Join(g.t.TempDir(), "repo")).Dir)
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
	testkit.WriteFile(g.t, filepath.Join(dir, "tracked.txt"), "one\ntwo\nthree\n")
	testkit.WriteFile(g.t, filepath.Join(dir, "other.txt"), "other\n")
	testkit.WriteFile(g.t, filepath.Join(dir, ".gitignore"), "node_modules/\n*.log\n")
	g.commitAll(dir, "init")
	return dir
}

func (g *tgit) commitAll(dir, msg string) {
	g.t.Helper()
	g.Run(dir, "add", "-A")
	g.Run(dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func (g *tgit) head(dir string) string {
	g.t.Helper()
	return strings.TrimSpace(g.Run(dir, "rev-parse", "HEAD"))
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
