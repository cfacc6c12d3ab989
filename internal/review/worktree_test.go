package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// TestResolveWorkTree: the uncommitted change is tracked edits (staged or
// not) and untracked files, as a patch on HEAD; a file whose stat changed
// but not its content is not part of it; an ignored file is not either.
func TestResolveWorkTree(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	ctx := context.Background()
	if _, err := Resolve(ctx, git, dir, Input{WorkTree: true}); !isNothing(err) {
		t.Fatalf("a clean work tree: want nothing to review, got %v", err)
	}
	// Only the stat changes: no change.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "a.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(ctx, git, dir, Input{WorkTree: true}); !isNothing(err) {
		t.Fatalf("a touched file: want nothing to review, got %v", err)
	}
	r.WriteFile("a.txt", "one\ntwo\nthree\n")
	r.WriteFile("new.go", "package x\n")
	r.WriteFile(".gitignore", "*.log\n")
	r.WriteFile("build.log", "noise\n")
	if _, err := git(ctx, dir, "add", ".gitignore"); err != nil {
		t.Fatal(err)
	}
	c, err := Resolve(ctx, git, dir, Input{WorkTree: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range c.Files {
		names = append(names, f.Path())
	}
	if got := strings.Join(names, " "); got != ".gitignore a.txt new.go" {
		t.Fatalf("files %q, want .gitignore a.txt new.go", got)
	}
	if c.Kind != KindWorkTree || c.Base == "" || !strings.HasPrefix(c.HeadKey, "patch:") {
		t.Fatalf("change %+v", c)
	}
	if !strings.Contains(string(c.Patch), "+package x") || !strings.Contains(string(c.Patch), "+three") {
		t.Fatalf("patch lacks the edits:\n%s", c.Patch)
	}
	if _, err := Resolve(ctx, git, dir, Input{WorkTree: true, Staged: true}); !isInput(err) {
		t.Fatalf("--worktree with --staged: want a usage error, got %v", err)
	}
	if _, err := Resolve(ctx, git, dir, Input{WorkTree: true, Diff: []byte("x")}); !isInput(err) {
		t.Fatalf("--worktree with --diff: want a usage error, got %v", err)
	}
}

func TestDropHeaderOnly(t *testing.T) {
	patch := "diff --git a/x b/x\nindex 1..2 100644\n" +
		"diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git a/z b/z\nnew file mode 100644\nindex 0000000..e69de29\n"
	got := string(dropHeaderOnly([]byte(patch)))
	var paths []string
	for _, f := range unidiff.Parse([]byte(got)) {
		paths = append(paths, f.Path())
	}
	if strings.Join(paths, " ") != "y z" {
		t.Fatalf("kept %q from\n%s", paths, got)
	}
}

func isNothing(err error) bool { var n *NothingError; return errors.As(err, &n) }
func isInput(err error) bool   { var n *InputError; return errors.As(err, &n) }
