package projectkey

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestFindWorktreeRootAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	// A stray, invalid `.git` directory is skipped by git's walk; ours must
	// skip it too rather than stop there.
	stray := filepath.Join(f.main, "src", "stray")
	if err := os.MkdirAll(filepath.Join(stray, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		dir  string
		want string
	}{
		{"repo root", f.main, f.main},
		{"subdirectory", filepath.Join(f.main, "src"), f.main},
		{"deep subdirectory", filepath.Join(f.main, "src", "deep"), f.main},
		{"trailing dot segments", filepath.Join(f.main, "src", "deep") + "/../..", f.main},
		{"linked worktree", f.linked, f.linked},
		{"linked worktree subdirectory", filepath.Join(f.linked, "src", "deep"), f.linked},
		{"superproject", f.super, f.super},
		{"submodule", f.sub, f.sub},
		{"superproject dir holding submodule", filepath.Join(f.super, "vendor"), f.super},
		{"symlink into repo", f.linkToSub, f.main},
		{"stray .git directory skipped", stray, f.main},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindWorktreeRoot(tt.dir)
			if err != nil {
				t.Fatalf("FindWorktreeRoot(%q): %v", tt.dir, err)
			}
			if got != tt.want {
				t.Errorf("FindWorktreeRoot(%q) = %q, want %q", tt.dir, got, tt.want)
			}
			if gitSays := g.toplevel(tt.dir); got != gitSays {
				t.Errorf("FindWorktreeRoot(%q) = %q, git --show-toplevel = %q", tt.dir, got, gitSays)
			}
		})
	}
}

func TestFindWorktreeRootRelativePath(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	t.Chdir(filepath.Join(f.main, "src"))
	got, err := FindWorktreeRoot("deep")
	if err != nil || got != f.main {
		t.Fatalf("FindWorktreeRoot(\"deep\") = %q, %v; want %q", got, err, f.main)
	}
}

func TestFindWorktreeRootNotRepo(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)

	file := filepath.Join(f.main, "README")
	badGitFile := filepath.Join(f.base, "badfile")
	testkit.WriteFile(t, filepath.Join(badGitFile, ".git"), "this is not a gitfile\n")
	danglingGitFile := filepath.Join(f.base, "dangling")
	testkit.WriteFile(t, filepath.Join(danglingGitFile, ".git"), "gitdir: ../nowhere\n")
	bareSub := filepath.Join(f.bare, "refs", "heads")
	insideDotGit := filepath.Join(f.main, ".git", "refs")
	insideWorktreeGitDir := filepath.Join(f.main, ".git", "worktrees", "linked")
	insideModuleGitDir := filepath.Join(f.super, ".git", "modules", "vendor", "lib")

	tests := []struct {
		name    string
		dir     string
		gitRuns bool // the oracle can run there (dir exists and is a directory)
	}{
		{"empty path", "", false},
		{"missing directory", filepath.Join(f.base, "missing"), false},
		{"regular file", file, false},
		{"plain directory", f.plain, true},
		{"bare repository", f.bare, true},
		{"inside bare repository", bareSub, true},
		{"inside .git", insideDotGit, true},
		{"inside linked worktree's git dir", insideWorktreeGitDir, true},
		// git answers with the submodule's work tree here, because the module's
		// config sets core.worktree, which the walk does not read; a hook whose
		// cwd is inside .git/modules is not a case worth a config parser.
		{"inside submodule's git dir", insideModuleGitDir, false},
		{"malformed .git file", badGitFile, true},
		{".git file pointing nowhere", danglingGitFile, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindWorktreeRoot(tt.dir)
			if !errors.Is(err, ErrNotRepo) {
				t.Fatalf("FindWorktreeRoot(%q) = %q, %v; want ErrNotRepo", tt.dir, got, err)
			}
			if got != "" {
				t.Errorf("root = %q alongside an error", got)
			}
			if tt.gitRuns {
				if gitSays := g.toplevel(tt.dir); gitSays != "" {
					t.Errorf("oracle disagrees: git --show-toplevel in %q = %q", tt.dir, gitSays)
				}
			}
		})
	}
}

func TestCommonDirAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	tests := []struct {
		name string
		root string
		want string
	}{
		{"main work tree", f.main, filepath.Join(f.main, ".git")},
		{"linked worktree", f.linked, filepath.Join(f.main, ".git")},
		{"submodule", f.sub, filepath.Join(f.super, ".git", "modules", "vendor", "lib")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CommonDir(tt.root)
			if err != nil {
				t.Fatalf("CommonDir(%q): %v", tt.root, err)
			}
			if got != tt.want {
				t.Errorf("CommonDir(%q) = %q, want %q", tt.root, got, tt.want)
			}
			if gitSays := g.commonDir(tt.root); got != gitSays {
				t.Errorf("CommonDir(%q) = %q, git --git-common-dir = %q", tt.root, got, gitSays)
			}
		})
	}
}

func TestCommonDirNotAWorktreeRoot(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	for _, dir := range []string{f.plain, filepath.Join(f.main, "src")} {
		if _, err := CommonDir(dir); !errors.Is(err, ErrNotRepo) {
			t.Errorf("CommonDir(%q) error = %v, want ErrNotRepo", dir, err)
		}
	}
}

func TestCommonDirResolvesSymlinkedGitDir(t *testing.T) {
	g := newTGit(t)
	base := physical(t, t.TempDir())
	repo := g.initRepo(base, "repo")
	// Move .git elsewhere and leave a symlink: the common dir is reported
	// physically, as git does.
	store := filepath.Join(base, "store.git")
	if err := os.Rename(filepath.Join(repo, ".git"), store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(repo, ".git")); err != nil {
		t.Fatal(err)
	}
	got, err := CommonDir(repo)
	if err != nil || got != store {
		t.Fatalf("CommonDir = %q, %v; want %q", got, err, store)
	}
	if gitSays := g.commonDir(repo); gitSays != store {
		t.Fatalf("oracle: git common dir = %q, want %q", gitSays, store)
	}
	root, err := FindWorktreeRoot(repo)
	if err != nil || root != repo || g.toplevel(repo) != repo {
		t.Fatalf("FindWorktreeRoot = %q, %v; git = %q; want %q", root, err, g.toplevel(repo), repo)
	}
}

func TestValidHead(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content string
		want    bool
	}{
		{"symbolic ref", "ref: refs/heads/main\n", true},
		{"symbolic ref no space", "ref:refs/heads/main", true},
		{"sha1", "0123456789abcdef0123456789abcdef01234567\n", true},
		{"sha256", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", true},
		{"uppercase hex", "0123456789ABCDEF0123456789abcdef01234567\n", false},
		{"short hex", "0123456789abcdef\n", false},
		{"ref outside refs/", "ref: heads/main\n", false},
		{"garbage", "hello\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			testkit.WriteFile(t, p, tt.content)
			if got := validHead(p); got != tt.want {
				t.Errorf("validHead(%q) = %v, want %v", tt.content, got, tt.want)
			}
		})
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("refs/heads/main", link); err != nil {
		t.Fatal(err)
	}
	if !validHead(link) {
		t.Error("symlink HEAD to refs/heads/main rejected")
	}
	if validHead(filepath.Join(dir, "missing")) {
		t.Error("missing HEAD accepted")
	}
}
