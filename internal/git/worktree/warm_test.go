package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestWarmSnapshotIsTheFreshOne holds a warm start's snapshot (one git
// status of the user's tree, then add --all of only the paths it names, or
// HEAD's tree when it names none) to the fresh capture's (a copy of the
// user's index, add --all of the whole tree): the same tree and the same
// files left out, over the shapes a user's tree takes.
func TestWarmSnapshotIsTheFreshOne(t *testing.T) {
	shapes := []struct {
		name  string
		shape func(f *fixture, dir string)
	}{
		{"clean", func(*fixture, string) {}},
		{"unstaged edit", func(f *fixture, dir string) { testkit.WriteFile(f.t, filepath.Join(dir, "a.txt"), "edited\n") }},
		{"staged edit", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "b.txt"), "staged\n")
			f.git(dir, "add", "b.txt")
		}},
		{"staged then edited again", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "b.txt"), "staged\n")
			f.git(dir, "add", "b.txt")
			testkit.WriteFile(f.t, filepath.Join(dir, "b.txt"), "and again\n")
		}},
		{"deleted", func(f *fixture, dir string) { os.Remove(filepath.Join(dir, "a.txt")) }},
		{"git rm", func(f *fixture, dir string) { f.git(dir, "rm", "-q", "a.txt") }},
		{"git rm --cached", func(f *fixture, dir string) { f.git(dir, "rm", "-q", "--cached", "a.txt") }},
		{"git mv", func(f *fixture, dir string) { f.git(dir, "mv", "a.txt", "moved.txt") }},
		{"executable bit", func(f *fixture, dir string) { os.Chmod(filepath.Join(dir, "b.txt"), 0o755) }},
		{"untracked files", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "new.txt"), "new\n")
			testkit.WriteFile(f.t, filepath.Join(dir, "deep", "er", "file name.txt"), "spaced\n")
		}},
		{"ignored and secret-looking files", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "ignored", "x"), "ignored\n")
			testkit.WriteFile(f.t, filepath.Join(dir, ".env"), "API_KEY=abc\n")
			testkit.WriteFile(f.t, filepath.Join(dir, "c.txt"), "plain\n")
		}},
		{"only a secret-looking file", func(f *fixture, dir string) { testkit.WriteFile(f.t, filepath.Join(dir, ".env"), "TOKEN=x\n") }},
		{"symlink", func(f *fixture, dir string) {
			if err := os.Symlink("b.txt", filepath.Join(dir, "link")); err != nil {
				f.t.Fatal(err)
			}
		}},
		{"intent to add", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "later.txt"), "later\n")
			f.git(dir, "add", "-N", "later.txt")
		}},
		{"a new commit", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "a.txt"), "committed\n")
			f.git(dir, "rm", "-q", "b.txt")
			f.git(dir, "add", "-A")
			f.git(dir, "commit", "-q", "-m", "the user moves on")
		}},
		{"a new commit and edits", func(f *fixture, dir string) {
			testkit.WriteFile(f.t, filepath.Join(dir, "d", "e.txt"), "committed\n")
			f.git(dir, "add", "-A")
			f.git(dir, "commit", "-q", "-m", "the user moves on")
			testkit.WriteFile(f.t, filepath.Join(dir, "d", "e.txt"), "and edits\n")
			testkit.WriteFile(f.t, filepath.Join(dir, "actor.txt"), "the user's own\n")
		}},
	}
	for i, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			dir := filepath.Join(t.TempDir(), "repo")
			f.git(t.TempDir(), "init", "-q", "-b", "main", dir)
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
			testkit.WriteFile(t, filepath.Join(dir, "b.txt"), "b\n")
			testkit.WriteFile(t, filepath.Join(dir, ".gitignore"), "ignored/\n")
			f.git(dir, "add", "-A")
			f.git(dir, "commit", "-q", "-m", "init")
			f.m.Secrets = secretfiles.Rule{}
			warm := &Manager{Git: f.m.Git, Dir: filepath.Join(t.TempDir(), "warm"), PID: os.Getpid(), Pool: Pool{Size: 1}}
			first, err := warm.Create(ctx, dir, fmt.Sprintf("01WARMA%02d", i))
			if err != nil {
				t.Fatal(err)
			}
			// The first task's actor leaves its member on another tree:
			// an edit, a new file and a deletion, committed.
			testkit.WriteFile(t, filepath.Join(first.Path, "a.txt"), "the actor's\n")
			testkit.WriteFile(t, filepath.Join(first.Path, "actor.txt"), "new\n")
			os.Remove(filepath.Join(first.Path, "b.txt"))
			if _, err := warm.Commit(ctx, first, "iteration 1"); err != nil {
				t.Fatal(err)
			}
			if err := warm.Finish(ctx, first, false); err != nil {
				t.Fatal(err)
			}
			s.shape(f, dir)
			w, err := warm.Create(ctx, dir, fmt.Sprintf("01WARMB%02d", i))
			if err != nil {
				t.Fatal(err)
			}
			c, err := f.m.Create(ctx, dir, fmt.Sprintf("01COLD%02d", i))
			if err != nil {
				t.Fatal(err)
			}
			if !w.Warm {
				t.Fatal("the second task did not start warm")
			}
			if wt, ct := f.treeOf(w.Path, w.Snapshot), f.treeOf(c.Path, c.Snapshot); wt != ct {
				t.Errorf("warm snapshot tree %s, fresh %s\nwarm: %s\nfresh: %s", wt, ct,
					f.git(w.Path, "ls-tree", "-r", w.Snapshot), f.git(c.Path, "ls-tree", "-r", c.Snapshot))
			}
			if !reflect.DeepEqual(w.LeftOut, c.LeftOut) {
				t.Errorf("warm left out %q, fresh %q", w.LeftOut, c.LeftOut)
			}
			if !reflect.DeepEqual(files(t, w.Path), files(t, c.Path)) {
				t.Errorf("warm files %v, fresh %v", files(t, w.Path), files(t, c.Path))
			}
			if head := f.git(w.Path, "rev-parse", "HEAD"); head != w.Snapshot {
				t.Errorf("the member's HEAD is %s, its snapshot %s", head, w.Snapshot)
			}
			if st := f.git(w.Path, "status", "--porcelain", "--untracked-files=all"); st != "" {
				t.Errorf("the member differs from its snapshot:\n%s", st)
			}
			if w.Base != c.Base || f.git(dir, "rev-parse", w.Branch) != w.Snapshot {
				t.Errorf("warm base %s ref %s, fresh base %s", w.Base, f.git(dir, "rev-parse", w.Branch), c.Base)
			}
		})
	}
}

func TestParseUserStatus(t *testing.T) {
	out := []byte(" M a.txt\x00M  b.txt\x00D  gone.txt\x00?? new dir/x.txt\x00R  new.txt\x00old.txt\x00UU both.txt\x00")
	got, err := parseUserStatus(out)
	if err != nil {
		t.Fatal(err)
	}
	want := userChanges{changed: []string{"a.txt", "both.txt"}, untracked: []string{"new dir/x.txt"}, staged: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"M\x00", " M a.txt", "R  new.txt\x00"} {
		if _, err := parseUserStatus([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
