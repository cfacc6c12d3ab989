package gitstate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestStatusRealGit(t *testing.T) {
	tests := []struct {
		name          string
		setup         func(t *testing.T, g *tgit, dir string)
		wantChanged   []Change
		wantUntracked []string
	}{
		{"clean", func(*testing.T, *tgit, string) {}, nil, nil},
		{"unstaged edit", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed\n")
		}, []Change{{XY: ".M", Path: "tracked.txt"}}, nil},
		{"staged edit", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed\n")
			g.Run(dir, "add", "tracked.txt")
		}, []Change{{XY: "M.", Path: "tracked.txt"}}, nil},
		{"staged and unstaged edit", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed\n")
			g.Run(dir, "add", "tracked.txt")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed again\n")
		}, []Change{{XY: "MM", Path: "tracked.txt"}}, nil},
		{"new untracked file", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "new\n")
		}, nil, []string{"new.txt"}},
		{"untracked directory listed file by file", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "a/b/c.txt"), "c\n")
			testkit.WriteFile(t, filepath.Join(dir, "a/d.txt"), "d\n")
		}, nil, []string{"a/b/c.txt", "a/d.txt"}},
		{"new file staged", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "added.txt"), "added\n")
			g.Run(dir, "add", "added.txt")
		}, []Change{{XY: "A.", Path: "added.txt"}}, nil},
		{"deleted file", func(t *testing.T, g *tgit, dir string) {
			if err := os.Remove(filepath.Join(dir, "other.txt")); err != nil {
				t.Fatal(err)
			}
		}, []Change{{XY: ".D", Path: "other.txt"}}, nil},
		{"deletion staged", func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "rm", "-q", "other.txt")
		}, []Change{{XY: "D.", Path: "other.txt"}}, nil},
		{"rename staged", func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "mv", "tracked.txt", "renamed.txt")
		}, []Change{{XY: "R.", Path: "renamed.txt", OrigPath: "tracked.txt"}}, nil},
		{"rename to a path with spaces", func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "mv", "tracked.txt", "has some spaces.txt")
		}, []Change{{XY: "R.", Path: "has some spaces.txt", OrigPath: "tracked.txt"}}, nil},
		{"executable bit", func(t *testing.T, g *tgit, dir string) {
			if err := os.Chmod(filepath.Join(dir, "tracked.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []Change{{XY: ".M", Path: "tracked.txt"}}, nil},
		{"file replaced by symlink", func(t *testing.T, g *tgit, dir string) {
			p := filepath.Join(dir, "other.txt")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("tracked.txt", p); err != nil {
				t.Fatal(err)
			}
		}, []Change{{XY: ".T", Path: "other.txt"}}, nil},
		{"file in ignored node_modules", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/pkg/index.js"), "module.exports = 1\n")
		}, nil, nil},
		{"file ignored by pattern", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "build/debug.log"), "log\n")
		}, nil, nil},
		{"file ignored via .git/info/exclude", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".git/info/exclude"), "secret.txt\n")
			testkit.WriteFile(t, filepath.Join(dir, "secret.txt"), "s\n")
		}, nil, nil},
		{"file ignored via global excludes", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(g.Home, ".config/git/ignore"), "*.tmp\n")
			testkit.WriteFile(t, filepath.Join(dir, "scratch.tmp"), "s\n")
		}, nil, nil},
		{"untracked path with spaces", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "dir with space/file name.txt"), "x\n")
		}, nil, []string{"dir with space/file name.txt"}},
		{"untracked path with newline", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "line\nbreak.txt"), "x\n")
		}, nil, []string{"line\nbreak.txt"}},
		{"unicode paths", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "ünïcødé/文件.txt"), "x\n")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "ändern\n")
		}, []Change{{XY: ".M", Path: "tracked.txt"}}, []string{"ünïcødé/文件.txt"}},
		{"unicode tracked path edited", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "日本/é.txt"), "v1\n")
			g.commitAll(dir, "unicode")
			testkit.WriteFile(t, filepath.Join(dir, "日本/é.txt"), "v2\n")
		}, []Change{{XY: ".M", Path: "日本/é.txt"}}, nil},
		{"nested repository", func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "init", "-q", "nested")
		}, nil, []string{"nested/"}},
		{"merge conflict", func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "checkout", "-q", "-b", "side")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "side\n")
			g.commitAll(dir, "side")
			g.Run(dir, "checkout", "-q", "main")
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "main\n")
			g.commitAll(dir, "main")
			cmd := exec.Command(g.Bin, "merge", "-q", "side")
			cmd.Dir, cmd.Env = dir, g.Env
			if err := cmd.Run(); err == nil {
				t.Fatal("merge unexpectedly succeeded")
			}
		}, []Change{{XY: "UU", Path: "tracked.txt"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTGit(t)
			dir := g.repo()
			tt.setup(t, g, dir)
			st := status(t, g, dir)
			if !reflect.DeepEqual(withoutDetail(st.Changed), tt.wantChanged) {
				t.Errorf("Changed = %q, want %q", st.Changed, tt.wantChanged)
			}
			if !reflect.DeepEqual(st.Untracked, tt.wantUntracked) {
				t.Errorf("Untracked = %q, want %q", st.Untracked, tt.wantUntracked)
			}
			wantDirty := len(tt.wantChanged)+len(tt.wantUntracked) > 0
			if st.Dirty() != wantDirty {
				t.Errorf("Dirty() = %v, want %v", st.Dirty(), wantDirty)
			}
			if want := strings.TrimSpace(g.Run(dir, "rev-parse", "HEAD")); st.Head != want {
				t.Errorf("Head = %q, want %q", st.Head, want)
			}
			if st.Branch != "main" {
				t.Errorf("Branch = %q, want main", st.Branch)
			}
		})
	}
}

func TestStatusUnbornRepository(t *testing.T) {
	tests := []struct {
		name          string
		setup         func(t *testing.T, g *tgit, dir string)
		wantChanged   []Change
		wantUntracked []string
	}{
		{"no files", func(*testing.T, *tgit, string) {}, nil, nil},
		{"untracked file", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
		}, nil, []string{"a.txt"}},
		{"staged file", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
			g.Run(dir, "add", "a.txt")
		}, []Change{{XY: "A.", Path: "a.txt"}}, nil},
		{"only ignored files", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, ".git/info/exclude"), "*.o\n")
			testkit.WriteFile(t, filepath.Join(dir, "main.o"), "obj\n")
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTGit(t)
			dir := g.emptyRepo()
			tt.setup(t, g, dir)
			st := status(t, g, dir)
			want := State{Head: InitialHead, Branch: "main", Changed: tt.wantChanged, Untracked: tt.wantUntracked}
			st.Changed = withoutDetail(st.Changed)
			if !reflect.DeepEqual(st, want) {
				t.Errorf("Status = %+v, want %+v", st, want)
			}
		})
	}
}

func TestStatusDetachedHead(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	g.Run(dir, "checkout", "-q", "--detach")
	st := status(t, g, dir)
	if st.Branch != "(detached)" || st.Head != g.head(dir) || st.Dirty() {
		t.Errorf("Status = %+v, want detached at %s and clean", st, g.head(dir))
	}
}

func TestStatusLinkedWorktreeIsSeparate(t *testing.T) {
	g := newTGit(t)
	main := g.repo()
	linked := filepath.Join(filepath.Dir(main), "linked")
	g.Run(main, "worktree", "add", "-q", "-b", "feature", linked)
	testkit.WriteFile(t, filepath.Join(main, "tracked.txt"), "edited in main\n")
	testkit.WriteFile(t, filepath.Join(linked, "only-in-linked.txt"), "x\n")

	if st := status(t, g, linked); !reflect.DeepEqual(st.Untracked, []string{"only-in-linked.txt"}) || len(st.Changed) != 0 {
		t.Errorf("linked worktree status = %+v; want only its own untracked file", st)
	}
	if st := status(t, g, main); !reflect.DeepEqual(withoutDetail(st.Changed), []Change{{XY: ".M", Path: "tracked.txt"}}) || len(st.Untracked) != 0 {
		t.Errorf("main worktree status = %+v; want only its own edit", st)
	}
}

// TestStatusDoesNotListIgnoredTrees guards the reason this package shells out
// to git: ignored trees like node_modules must be neither walked nor listed.
func TestStatusDoesNotListIgnoredTrees(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	for i := range 3000 {
		testkit.WriteFile(t, filepath.Join(dir, fmt.Sprintf("node_modules/pkg%02d/lib/file%04d.js", i%40, i)), "x\n")
	}
	testkit.WriteFile(t, filepath.Join(dir, "dist/bundle.log"), "x\n")

	st := status(t, g, dir)
	if st.Dirty() || len(st.Changed) != 0 || len(st.Untracked) != 0 {
		t.Fatalf("ignored files leaked into Status: %d changed, %d untracked (first: %q)",
			len(st.Changed), len(st.Untracked), firstN(st.Untracked, 3))
	}
	testkit.WriteFile(t, filepath.Join(dir, "src/real.go"), "package src\n")
	if st := status(t, g, dir); !reflect.DeepEqual(st.Untracked, []string{"src/real.go"}) {
		t.Errorf("Untracked = %q, want only src/real.go", firstN(st.Untracked, 3))
	}
}

func firstN(s []string, n int) []string {
	if len(s) < n {
		return s
	}
	return s[:n]
}

func TestStatusRunsGitOnceWithExpectedArgs(t *testing.T) {
	var calls [][]string
	var dirs []string
	runner := func(_ context.Context, dir string, args ...string) ([]byte, error) {
		calls = append(calls, args)
		dirs = append(dirs, dir)
		return []byte("# branch.oid (initial)\x00# branch.head main\x00"), nil
	}
	if _, err := Status(context.Background(), runner, "/repo"); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || dirs[0] != "/repo" {
		t.Fatalf("git ran %d times in %q; want once in /repo", len(calls), dirs)
	}
	for _, a := range calls[0] {
		if strings.HasPrefix(a, "--ignored") {
			t.Errorf("status asked for ignored files: %q", calls[0])
		}
	}
	for _, want := range []string{"status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"} {
		if !contains(calls[0], want) {
			t.Errorf("status args %q lack %q", calls[0], want)
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestStatusRunnerError(t *testing.T) {
	boom := errors.New("boom")
	runner := func(context.Context, string, ...string) ([]byte, error) { return nil, boom }
	if _, err := Status(context.Background(), runner, "/repo"); !errors.Is(err, boom) {
		t.Errorf("error = %v, want it to wrap the runner's", err)
	}
}

// withoutDetail drops the modes and object ids, which vary with content,
// so that tests can compare what changed.
func withoutDetail(cs []Change) []Change {
	var out []Change
	for _, c := range cs {
		c.Detail = ""
		out = append(out, c)
	}
	return out
}
