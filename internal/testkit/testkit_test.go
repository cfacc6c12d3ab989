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
