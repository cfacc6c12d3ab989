package projectkey

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// goGitView is what go-git, an independent implementation, reports for dir.
// go-git is used only here: linking it into the hook would cost ~1.3 ms of
// package init per process.
type goGitView struct {
	worktree string
	common   string
	origin   string
}

func openGoGit(t *testing.T, dir string) (goGitView, error) {
	t.Helper()
	r, err := gogit.PlainOpenWithOptions(dir, &gogit.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return goGitView{}, err
	}
	w, err := r.Worktree()
	if err != nil {
		return goGitView{}, err
	}
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		t.Fatalf("unexpected storer %T", r.Storer)
	}
	// objects/ always lives in the common dir, so chrooting to it reveals
	// which directory go-git picked as common.
	objects, err := st.Filesystem().Chroot("objects")
	if err != nil {
		t.Fatal(err)
	}
	v := goGitView{
		worktree: physical(t, w.Filesystem.Root()),
		common:   physical(t, filepath.Dir(objects.Root())),
	}
	if rem, err := r.Remote("origin"); err == nil && len(rem.Config().URLs) > 0 {
		v.origin = rem.Config().URLs[0]
	}
	return v, nil
}

func TestOracleGoGitDiscovery(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	g.run(f.main, "remote", "add", "origin", "git@example.com:o/main.git")

	// No symlinked path here: go-git climbs the logical path and finds
	// nothing, while git climbs the physical one; the git oracle covers it.
	dirs := map[string]string{
		"repo root":              f.main,
		"deep subdirectory":      filepath.Join(f.main, "src", "deep"),
		"linked worktree":        f.linked,
		"linked worktree subdir": filepath.Join(f.linked, "src", "deep"),
		"superproject":           f.super,
		"submodule":              f.sub,
	}
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			want, err := openGoGit(t, dir)
			if err != nil {
				t.Fatalf("go-git: %v", err)
			}
			root, err := FindWorktreeRoot(dir)
			if err != nil || root != want.worktree {
				t.Errorf("FindWorktreeRoot = %q, %v; go-git = %q", root, err, want.worktree)
			}
			common, err := CommonDir(root)
			if err != nil || common != want.common {
				t.Errorf("CommonDir = %q, %v; go-git = %q", common, err, want.common)
			}
			repo, err := Resolve(context.Background(), dir, g.runner())
			if err != nil || repo.RemoteURL != want.origin {
				t.Errorf("Resolve remote = %q, %v; go-git origin = %q", repo.RemoteURL, err, want.origin)
			}
		})
	}
}

func TestOracleGoGitRejections(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)

	if _, err := openGoGit(t, f.plain); !errors.Is(err, gogit.ErrRepositoryNotExists) {
		t.Fatalf("go-git on a plain directory: %v, want ErrRepositoryNotExists", err)
	}
	if _, err := FindWorktreeRoot(f.plain); !errors.Is(err, ErrNotRepo) {
		t.Errorf("FindWorktreeRoot(plain) error = %v, want ErrNotRepo", err)
	}

	// go-git's DetectDotGit does not recognise a bare repository as such, so
	// open it directly to ask whether it has a work tree.
	r, err := gogit.PlainOpen(f.bare)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Worktree(); !errors.Is(err, gogit.ErrIsBareRepository) {
		t.Fatalf("go-git Worktree() on a bare repository: %v, want ErrIsBareRepository", err)
	}
	if _, err := FindWorktreeRoot(f.bare); !errors.Is(err, ErrNotRepo) {
		t.Errorf("FindWorktreeRoot(bare) error = %v, want ErrNotRepo", err)
	}
}
