package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// When $ONLOOKER_DIR cannot hold a worktree (below a file here), the task
// goes to the private per-user fallback, and everything still finds it.
func TestFallbackDirectory(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	blocker := filepath.Join(t.TempDir(), "file")
	testkit.WriteFile(t, blocker, "")
	var warned []string
	f.m.Dir = filepath.Join(blocker, "onlooker", "worktrees")
	f.m.Fallback = FallbackDir(t.TempDir(), os.Getuid(), "key")
	f.m.Warn = func(s string) { warned = append(warned, s) }
	task, err := f.m.Create(ctx, repo, "01FALLBACK")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(task.Path, filepath.Dir(f.m.Fallback)) || len(warned) != 1 || !strings.Contains(warned[0], "not a directory") {
		t.Fatalf("path %s, warnings %q", task.Path, warned)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, "x.txt"), "x\n")
	f.m.Commit(ctx, task, "it")
	if err := f.m.Finish(ctx, task, true); err != nil {
		t.Fatal(err)
	}
	if kept := f.m.KeptTasks(); len(kept) != 1 || kept[0].ID != "01FALLBACK" {
		t.Errorf("kept = %+v", kept)
	}
	loaded, err := f.m.Load("01FALLBACK")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := f.m.Apply(ctx, loaded); err != nil || !res.Applied {
		t.Fatalf("apply from the fallback: %+v %v", res, err)
	}
	if err := f.m.Discard(ctx, loaded); err != nil {
		t.Fatal(err)
	}
	if kept := f.m.KeptTasks(); len(kept) != 0 {
		t.Errorf("kept after discard = %+v", kept)
	}
}

// A fallback root that is not private to this user is neither used nor
// trusted: another user could have planted records there.
func TestFallbackMustBePrivate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	tmp := t.TempDir()
	fb := FallbackDir(tmp, os.Getuid(), "key")
	os.MkdirAll(fb, 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(fb)), 0o755)
	testkit.WriteFile(t, filepath.Join(fb, "01PLANTED.json"), `{"task_id":"01PLANTED","branch":"tribunal/01PLANTED","state":"kept","worktree":"/home"}`)
	blocker := filepath.Join(t.TempDir(), "file")
	testkit.WriteFile(t, blocker, "")
	f.m.Dir = filepath.Join(blocker, "worktrees")
	f.m.Fallback = fb
	if _, err := f.m.Load("01PLANTED"); err == nil {
		t.Error("a record in a shared fallback directory was trusted")
	}
	if kept := f.m.KeptTasks(); len(kept) != 0 {
		t.Errorf("kept = %+v", kept)
	}
	if _, err := f.m.Create(ctx, repo, "01NOTPRIVATE"); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("Create with a shared fallback: %v", err)
	}
}
