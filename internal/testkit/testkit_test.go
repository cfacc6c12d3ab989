package testkit_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestProductNeverImportsTestkit holds that only tests link test support:
// no non-test Go file outside internal/testkit imports a testkit package.
func TestProductNeverImportsTestkit(t *testing.T) {
	root := filepath.Join("..", "..")
	const kit = "github.com/tribunal-cc/tribunal/internal/testkit"
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "dist", "build":
				return filepath.SkipDir
			}
			if rel, _ := filepath.Rel(root, path); filepath.ToSlash(rel) == "internal/testkit" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == kit || strings.HasPrefix(p, kit+"/") {
				t.Errorf("%s imports %s: product code never links test support", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d Go files: the walk missed the tree", checked)
	}
}

func TestGitRepo(t *testing.T) {
	r := testkit.GitRepo(t)
	r.WriteFile("dir/a.txt", "a\n")
	r.Commit("one")
	if got := r.Git("log", "--format=%s"); got != "one" {
		t.Fatalf("log = %q, want one", got)
	}
	if got := r.Git("ls-files"); got != "dir/a.txt" {
		t.Fatalf("ls-files = %q", got)
	}
	if got := r.Git("branch", "--show-current"); got != "main" {
		t.Fatalf("branch = %q, want main", got)
	}
}

// TestGitInitBareAndClone holds the shapes the multi-repository tests
// build: a bare remote, a clone pushing to it, and Try's error carrying
// git's own message.
func TestGitInitBareAndClone(t *testing.T) {
	g := testkit.NewGit(t)
	top := t.TempDir()
	origin := g.Init(filepath.Join(top, "origin.git"), "--bare")
	if got := origin.Git("rev-parse", "--is-bare-repository"); got != "true" {
		t.Fatalf("bare = %q", got)
	}
	g.Run(top, "clone", "-q", origin.Dir, "clone")
	clone := filepath.Join(top, "clone")
	testkit.WriteFiles(t, clone, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
	g.Run(clone, "add", "-A")
	g.Run(clone, "commit", "-q", "-m", "one")
	g.Run(clone, "push", "-q", "origin", "HEAD:main")
	if got := origin.Git("ls-tree", "-r", "--name-only", "main"); got != "a.txt\nd/b.txt" {
		t.Fatalf("origin's tree = %q", got)
	}
	if _, err := g.Try(top, "rev-parse", "--verify", "nosuch"); err == nil || !strings.Contains(err.Error(), "fatal") {
		t.Fatalf("Try's error = %v, want git's message", err)
	}
}

// TestWriteFileModeAndTempFile: the mode asked for is the mode written,
// whatever the umask, and TempFile's path holds the content.
func TestWriteFileModeAndTempFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bin", "tool")
	testkit.WriteFileMode(t, p, "#!/bin/sh\n", 0o775)
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o775 {
		t.Fatalf("mode = %v, %v; want 0775", fi.Mode(), err)
	}
	q := testkit.TempFile(t, "a.json", "{}")
	if b, err := os.ReadFile(q); err != nil || string(b) != "{}" || filepath.Base(q) != "a.json" {
		t.Fatalf("TempFile: %q %q %v", q, b, err)
	}
}
