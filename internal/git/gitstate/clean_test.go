//go:build linux

package gitstate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// settle makes dir's files older than the index git writes next, and has
// git refresh the index: a repository as it is between turns, whose
// entries are not racily clean.
func settle(t *testing.T, g *tgit, dir string) {
	t.Helper()
	// A second of its own each call: git may compare whole seconds only,
	// and must see the change to refresh its stat data.
	settled++
	old := time.Now().Add(-time.Duration(10+settled) * time.Second)
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			tv := unix.NsecToTimeval(old.UnixNano())
			return unix.Lutimes(p, []unix.Timeval{tv, tv})
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Run(dir, "status", "--porcelain")
}

var settled int

func (g *tgit) getenv(name string) string {
	for _, kv := range g.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// TestProvenCleanAgreesWithGit holds the fast path to git's own answer
// over many shapes of repository: it may say "not proven" where git says
// clean (it then runs git), never "clean" where git says dirty; and where
// the shape is one it reads, it must prove it (else it is dead code).
func TestProvenCleanAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	cases := []struct {
		name  string
		shape func(t *testing.T, dir string)
		want  bool // the fast path must prove the tree clean
	}{
		{"clean", func(*testing.T, string) {}, true},
		{"ignored files and directories", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/a/b.js"), "x")
			testkit.WriteFile(t, filepath.Join(dir, "debug.log"), "x")
			testkit.WriteFile(t, filepath.Join(dir, "sub/deep/trace.log"), "x")
		}, true},
		{"untracked empty directory", func(t *testing.T, dir string) {
			if err := os.MkdirAll(filepath.Join(dir, "empty", "deeper"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"untracked file", func(t *testing.T, dir string) { testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "x") }, false},
		{"untracked file in a new directory", func(t *testing.T, dir string) { testkit.WriteFile(t, filepath.Join(dir, "a/b/new.txt"), "x") }, false},
		{"modified file", func(t *testing.T, dir string) { testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed\n") }, false},
		{"same-size edit", func(t *testing.T, dir string) { testkit.WriteFile(t, filepath.Join(dir, "other.txt"), "OTHER\n") }, false},
		{"staged change", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged\n")
			g.Run(dir, "add", "tracked.txt")
		}, false},
		{"staged change with a valid cache-tree", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged\n")
			g.Run(dir, "add", "tracked.txt")
			g.Run(dir, "write-tree")
			settle(t, g, dir)
		}, false},
		{"deleted file", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "other.txt")) }, false},
		{"executable bit", func(t *testing.T, dir string) { os.Chmod(filepath.Join(dir, "other.txt"), 0o755) }, false},
		{"file became a directory", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "other.txt"))
			testkit.WriteFile(t, filepath.Join(dir, "other.txt/inner"), "x")
		}, false},
		{"packed commit and refs", func(t *testing.T, dir string) { g.Run(dir, "gc", "-q") }, true},
		{"packed refs, loose commit", func(t *testing.T, dir string) { g.Run(dir, "pack-refs", "--all") }, true},
		{"detached HEAD", func(t *testing.T, dir string) { g.Run(dir, "checkout", "-q", "--detach") }, true},
		{"nested ignore file", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "sub/.gitignore"), "*.tmp\n/only-here\nbuild/\n")
			testkit.WriteFile(t, filepath.Join(dir, "sub/keep.txt"), "x")
			g.commitAll(dir, "sub")
			testkit.WriteFile(t, filepath.Join(dir, "sub/x.tmp"), "x")
			testkit.WriteFile(t, filepath.Join(dir, "sub/only-here"), "x")
			testkit.WriteFile(t, filepath.Join(dir, "sub/build/out.o"), "x")
			settle(t, g, dir)
		}, true},
		{"anchored pattern does not reach below", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "sub/.gitignore"), "/only-here\n")
			g.commitAll(dir, "sub")
			testkit.WriteFile(t, filepath.Join(dir, "sub/deeper/only-here"), "x")
			settle(t, g, dir)
		}, false},
		{"directory-only pattern and a file of that name", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".gitignore"), "node_modules/\n*.log\nbuild/\n")
			g.commitAll(dir, "ignore build/")
			testkit.WriteFile(t, filepath.Join(dir, "build"), "a file")
			settle(t, g, dir)
		}, false},
		{"untracked file inside an ignored directory holding tracked files", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/kept.js"), "x")
			g.Run(dir, "add", "-f", "node_modules/kept.js")
			g.Run(dir, "commit", "-q", "-m", "kept")
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/other.js"), "x")
			settle(t, g, dir)
		}, true},
		{"symlink", func(t *testing.T, dir string) {
			if err := os.Symlink("tracked.txt", filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			g.commitAll(dir, "link")
			settle(t, g, dir)
		}, true},
		{"tracked directory moved and replaced by an ignored symlink to it", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "sub/keep.txt"), "x")
			testkit.WriteFile(t, filepath.Join(dir, ".gitignore"), "node_modules/\n*.log\nsub\nmoved/\n")
			g.Run(dir, "add", "-f", "sub/keep.txt")
			g.commitAll(dir, "sub")
			settle(t, g, dir)
			if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "moved")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("moved", filepath.Join(dir, "sub")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"info/exclude", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".git/info/exclude"), "secret-dir/\n")
			testkit.WriteFile(t, filepath.Join(dir, "secret-dir/a"), "x")
		}, true},
		{"global excludes file", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(g.Home, ".config/git/ignore"), ".DS_Store\n")
			t.Cleanup(func() { os.Remove(filepath.Join(g.Home, ".config/git/ignore")) })
			testkit.WriteFile(t, filepath.Join(dir, ".DS_Store"), "x")
		}, true},
		{"negated pattern", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".gitignore"), "*.log\n!keep.log\n")
			g.commitAll(dir, "negation")
			settle(t, g, dir)
		}, false},
		{"wildcard pattern", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".gitignore"), "out-*\n")
			g.commitAll(dir, "wildcard")
			testkit.WriteFile(t, filepath.Join(dir, "out-1"), "x")
			settle(t, g, dir)
		}, false},
		{"assume-unchanged file edited", func(t *testing.T, dir string) {
			g.Run(dir, "update-index", "--assume-unchanged", "other.txt")
			testkit.WriteFile(t, filepath.Join(dir, "other.txt"), "edited\n")
		}, false},
		{"skip-worktree", func(t *testing.T, dir string) { g.Run(dir, "update-index", "--skip-worktree", "other.txt") }, false},
		{"intent to add", func(t *testing.T, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "later.txt"), "x")
			g.Run(dir, "add", "-N", "later.txt")
		}, false},
		{"index version 4", func(t *testing.T, dir string) { g.Run(dir, "update-index", "--index-version", "4") }, false},
		{"split index", func(t *testing.T, dir string) { g.Run(dir, "update-index", "--split-index") }, false},
		{"core.ignoreCase", func(t *testing.T, dir string) { g.Run(dir, "config", "core.ignoreCase", "true") }, false},
		{"nested repository", func(t *testing.T, dir string) { g.Run(dir, "init", "-q", "inner") }, false},
		{"unmerged", func(t *testing.T, dir string) {
			g.Run(dir, "checkout", "-q", "-b", "side")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "side\n")
			g.commitAll(dir, "side")
			g.Run(dir, "checkout", "-q", "main")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "main\n")
			g.commitAll(dir, "main")
			mergeConflict(t, g, dir, "side")
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := g.repo()
			settle(t, g, dir)
			c.shape(t, dir)
			gitClean := !status(t, g, dir).Dirty()
			err := provenClean(dir, g.getenv)
			if err == nil && !gitClean {
				t.Fatalf("proven clean, but git status says dirty: %+v", status(t, g, dir))
			}
			if c.want && err != nil {
				t.Fatalf("not proven (%v); git says clean=%v: the fast path should read this shape", err, gitClean)
			}
		})
	}
}

func mergeConflict(t *testing.T, g *tgit, dir, branch string) {
	t.Helper()
	cmd := exec.Command(g.Bin, "merge", "-q", branch)
	cmd.Dir, cmd.Env = dir, g.Env
	if err := cmd.Run(); err == nil {
		t.Fatal("the merge was meant to conflict")
	}
}

// TestProvenCleanRefusesRacyEntries: an entry as new as the index
// is re-read by git, so it is never proven; a commit's files written in
// the same second as its index are that case.
func TestProvenCleanRefusesRacyEntries(t *testing.T) {
	g := newTGit(t)
	dir := g.emptyRepo()
	testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
	g.commitAll(dir, "a")
	// Touch the file to the index's own time: racily clean for git.
	fi, err := os.Stat(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(dir, "a.txt"), fi.ModTime(), fi.ModTime())
	if err := provenClean(dir, g.getenv); err == nil {
		t.Fatal("a racily clean entry was proven clean")
	}
}

func TestProvenCleanRefusesConfigThatChangesStatus(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	settle(t, g, dir)
	if err := provenClean(dir, g.getenv); err != nil {
		t.Fatalf("a clean repository was not proven: %v", err)
	}
	for _, env := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"} {
		getenv := func(k string) string {
			if k == env {
				return "x"
			}
			return g.getenv(k)
		}
		if provenClean(dir, getenv) == nil {
			t.Errorf("%s set: proven clean without reading it", env)
		}
	}
	for _, cfg := range []string{"[include]\n\tpath = x\n", "[core]\n\texcludesFile = /x\n", "[core]\n\tbare\n", "[core]\n\tbare = true\n"} {
		testkit.WriteFile(t, filepath.Join(g.Home, ".gitconfig"), cfg)
		if provenClean(dir, g.getenv) == nil {
			t.Errorf("global config %q: proven clean without reading it", cfg)
		}
	}
	os.Remove(filepath.Join(g.Home, ".gitconfig"))
}

// TestProvenCleanNeverWaitsOnAFIFO plants a named pipe where ProvenClean
// reads a file — the user's git config, HEAD — with nobody
// writing to it: the Stop hook must get "not proven" at once (and fall
// back to git), never block in open(2). Before every read went through
// store.OpenRegular this test hung until the package's deadline.
func TestProvenCleanNeverWaitsOnAFIFO(t *testing.T) {
	for _, rel := range []string{"home:.gitconfig", "repo:.git/HEAD"} {
		t.Run(rel, func(t *testing.T) {
			g := newTGit(t)
			dir := g.repo()
			settle(t, g, dir)
			base, name, _ := strings.Cut(rel, ":")
			path := filepath.Join(dir, name)
			if base == "home" {
				path = filepath.Join(g.Home, name)
			}
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			if err := provenClean(dir, g.getenv); err == nil {
				t.Fatalf("a repository with a named pipe at %s was proven clean", name)
			}
		})
	}
}
