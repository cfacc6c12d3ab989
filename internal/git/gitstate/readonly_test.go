package gitstate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// gitSnapshot records every entry under a .git directory: type, size,
// modification time and content hash. Directory modification times are
// included, so even a lock file created and removed again shows.
func gitSnapshot(t *testing.T, gitDir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(gitDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%s size=%d mtime=%d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " sha256=" + hex.EncodeToString(sum[:])
		}
		snap[strings.TrimPrefix(p, gitDir)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func snapshotDiff(before, after map[string]string) []string {
	var diffs []string
	for p, b := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, "removed "+p)
		} else if a != b {
			diffs = append(diffs, fmt.Sprintf("changed %s: %s -> %s", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "added "+p)
		}
	}
	slices.Sort(diffs)
	return diffs
}

// installWitnessHook makes the repository's post-index-change hook (run by
// git whenever it writes the index) append $WITNESS to marker.
func installWitnessHook(t *testing.T, repo, marker string) {
	t.Helper()
	hook := filepath.Join(repo, ".git", "hooks", "post-index-change")
	script := "#!/bin/sh\necho \"${WITNESS:-unknown}\" >> '" + marker + "'\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// staleStat leaves tracked, unchanged files with a modification time the
// index does not know, the state in which git's porcelain diff refreshes
// (and rewrites) the index.
func staleStat(t *testing.T, dir string, paths ...string) {
	t.Helper()
	future := time.Now().Add(time.Duration(1+time.Now().UnixNano()%1000) * time.Second)
	for _, p := range paths {
		if err := os.Chtimes(filepath.Join(dir, p), future, future); err != nil {
			t.Fatal(err)
		}
	}
}

// hookPaths runs every git read the hooks and the session runner make.
func hookPaths(ctx context.Context, git projectkey.GitRunner, dir string) error {
	if _, err := projectkey.Resolve(ctx, dir, git); err != nil {
		return err
	}
	st, err := Status(ctx, git, dir)
	if err != nil {
		return err
	}
	if _, err := Fingerprint(ctx, git, dir, st); err != nil {
		return err
	}
	if _, err := DiffStat(ctx, git, dir, 4000); err != nil {
		return err
	}
	if _, err := Diff(ctx, git, dir, st); err != nil {
		return err
	}
	return nil
}

func TestHookGitLeavesDotGitUntouched(t *testing.T) {
	g := newTGit(t)
	for _, tc := range []struct {
		name  string
		setup func(dir string)
	}{
		{"committed repository with staged, unstaged, untracked and stat-dirty files", func(dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "changed\n")
			testkit.WriteFile(t, filepath.Join(dir, "staged.txt"), "staged\n")
			g.Run(dir, "add", "staged.txt")
			testkit.WriteFile(t, filepath.Join(dir, "untracked.txt"), "new\n")
			staleStat(t, dir, "other.txt", ".gitignore")
		}},
		{"unborn branch", func(dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
			g.Run(dir, "add", "a.txt")
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "a2\n")
			staleStat(t, dir, "a.txt")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dir string
			if strings.HasPrefix(tc.name, "unborn") {
				dir = g.emptyRepo()
			} else {
				dir = g.repo()
			}
			tc.setup(dir)
			marker := filepath.Join(t.TempDir(), "hook-ran")
			installWitnessHook(t, dir, marker)
			before := gitSnapshot(t, filepath.Join(dir, ".git"))
			git := projectkey.ExecGit(g.Bin, append(slices.Clone(g.Env), "WITNESS=tribunal"))
			for range 3 {
				if err := hookPaths(context.Background(), git, dir); err != nil {
					t.Fatal(err)
				}
			}
			if d := snapshotDiff(before, gitSnapshot(t, filepath.Join(dir, ".git"))); len(d) > 0 {
				t.Errorf("the hooks' git calls changed .git:\n%s", strings.Join(d, "\n"))
			}
			if b, err := os.ReadFile(marker); err == nil {
				t.Errorf("the repository's post-index-change hook ran: %q", b)
			}
		})
	}
}

// TestHookGitBesideTheUsersGit runs the hooks' git reads over and over while
// the user adds and commits in a loop: the user's git must never fail (as
// it did with "index.lock exists" when our diff refreshed the index), and
// the repository's hook must only ever run for the user's commands.
func TestHookGitBesideTheUsersGit(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	marker := filepath.Join(t.TempDir(), "hook-ran")
	installWitnessHook(t, dir, marker)
	testkit.WriteFile(t, filepath.Join(dir, "untracked.txt"), "new\n")

	const rounds = 25
	userEnv := append(slices.Clone(g.Env), "WITNESS=user")
	userGit := func(args ...string) error {
		cmd := exec.Command(g.Bin, args...)
		cmd.Dir = dir
		cmd.Env = userEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("user's git %v: %w: %s", args, err, out)
		}
		return nil
	}
	done := make(chan struct{})
	var userErr error
	go func() {
		defer close(done)
		for i := range rounds {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), fmt.Sprintf("round %d\n", i))
			// other.txt keeps its content but not its stat data, so any
			// index refresh by a reader would have something to write.
			staleStat(t, dir, "other.txt")
			if err := userGit("add", "tracked.txt"); err != nil {
				userErr = err
				return
			}
			if err := userGit("commit", "-q", "-m", fmt.Sprintf("round %d", i)); err != nil {
				userErr = err
				return
			}
		}
	}()

	git := projectkey.ExecGit(g.Bin, append(slices.Clone(g.Env), "WITNESS=tribunal"))
	var wg sync.WaitGroup
	var ourErrs []error
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if err := hookPaths(context.Background(), git, dir); err != nil {
					mu.Lock()
					ourErrs = append(ourErrs, err)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if userErr != nil {
		t.Fatalf("the user's git failed beside the hooks: %v", userErr)
	}
	// Our reads may legitimately fail on a state the user's git is in the
	// middle of writing; they must not have broken the user's commands.
	for _, err := range ourErrs {
		t.Logf("hook read failed (tolerated): %v", err)
	}
	b, err := os.ReadFile(marker)
	if err != nil {
		t.Fatalf("the witness hook never ran, so the test proves nothing: %v", err)
	}
	for _, who := range strings.Fields(string(b)) {
		if who != "user" {
			t.Fatalf("post-index-change ran for %q (witness lines %q)", who, b)
		}
	}
}
