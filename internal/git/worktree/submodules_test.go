package worktree

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestSubmodulesInProcessAgreesWithGit: the gitlinks read from the task
// worktree's index in process are the ones `git ls-files --stage` lists,
// and reading them starts no git; when gitindex refuses the index
// (skip-worktree sets an extended flag), git is asked and still agrees.
func TestSubmodulesInProcessAgreesWithGit(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		refuse   bool // make the index one gitindex does not read
		wantGit  int  // git children run with the git directory known
		wantList []string
	}{
		{"read in process", false, 0, []string{"mods/a", "vendor/z"}},
		{"refused index falls back to git", true, 1, []string{"mods/a", "vendor/z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			repo := f.repo()
			f.git(repo, "commit", "-q", "-m", "dirty state")
			head := f.git(repo, "rev-parse", "HEAD")
			for _, p := range []string{"vendor/z", "mods/a"} {
				f.git(repo, "update-index", "--add", "--cacheinfo", "160000,"+head+","+p)
			}
			f.git(repo, "commit", "-q", "-m", "gitlinks")
			wt := filepath.Join(t.TempDir(), "wt")
			f.git(repo, "worktree", "add", "-q", "--detach", wt)
			gitDir := f.git(wt, "rev-parse", "--absolute-git-dir")
			if tt.refuse {
				f.git(wt, "update-index", "--skip-worktree", "a.txt")
			}

			var calls [][]string
			git := f.m.Git
			f.m.Git = func(ctx context.Context, dir string, args ...string) ([]byte, error) {
				calls = append(calls, args)
				return git(ctx, dir, args...)
			}
			got, err := f.m.submodules(ctx, wt, gitDir)
			if err != nil || !reflect.DeepEqual(got, tt.wantList) {
				t.Errorf("submodules(gitDir) = %q, %v; want %q", got, err, tt.wantList)
			}
			if len(calls) != tt.wantGit {
				t.Errorf("submodules(gitDir) ran git %d times (%q), want %d", len(calls), calls, tt.wantGit)
			}
			for _, c := range calls {
				if !slices.Contains(c, "ls-files") {
					t.Errorf("fallback ran git %q, want ls-files", c)
				}
			}
			fromGit, err := f.m.submodules(ctx, wt, "")
			if err != nil || !reflect.DeepEqual(fromGit, got) {
				t.Errorf("submodules without gitDir (git) = %q, %v; in process %q", fromGit, err, got)
			}
			if len(calls) != tt.wantGit+1 {
				t.Errorf("without gitDir git ran %d times in all, want %d", len(calls), tt.wantGit+1)
			}
		})
	}
}
