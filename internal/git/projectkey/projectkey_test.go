package projectkey

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// sha12 is an independent restatement of spec §9.3 used to check Key.
func sha12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:12]
}

func TestKey(t *testing.T) {
	tests := []struct {
		name      string
		remote    string
		mainRoot  string
		want      string
		wantInput string // the string hashed, "" when the key is empty
	}{
		// Literal vectors from `printf %s '<input>' | sha256sum | cut -c1-12`.
		{"https remote", "https://example.com/o/r.git", "/ignored", "0f3fb56288fb", "remote:https://example.com/o/r.git"},
		{"ssh remote", "git@github.com:tribunal-cc/tribunal.git", "", "9bee67b5805c", "remote:git@github.com:tribunal-cc/tribunal.git"},
		{"root only", "", "/home/u/src/proj", "de124e3c6104", "root:/home/u/src/proj"},
		{"neither", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Key(tt.remote, tt.mainRoot)
			if got != tt.want {
				t.Errorf("Key(%q, %q) = %q, want %q", tt.remote, tt.mainRoot, got, tt.want)
			}
			if tt.wantInput != "" && got != sha12(tt.wantInput) {
				t.Errorf("Key(%q, %q) = %q, sha256(%q)[:12] = %q", tt.remote, tt.mainRoot, got, tt.wantInput, sha12(tt.wantInput))
			}
		})
	}
}

func TestKeyDistinguishesURLForms(t *testing.T) {
	// spec §9.1: no normalisation, so the two spellings of one repository differ.
	if Key("https://github.com/o/r", "") == Key("git@github.com:o/r.git", "") {
		t.Error("https and ssh URLs gave the same key")
	}
}

func TestMainRoot(t *testing.T) {
	tests := []struct {
		name, worktree, common, want string
	}{
		{"main work tree", "/src/r", "/src/r/.git", "/src/r"},
		{"linked worktree", "/wt/feature", "/src/r/.git", "/src/r"},
		{"submodule (spec §A.17)", "/src/super/vendor/lib", "/src/super/.git/modules/vendor/lib", "/src/super/vendor/lib"},
		{"separate git dir", "/src/r", "/store/r.git", "/src/r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MainRoot(tt.worktree, tt.common); got != tt.want {
				t.Errorf("MainRoot(%q, %q) = %q, want %q", tt.worktree, tt.common, got, tt.want)
			}
		})
	}
}

func TestResolveRealGit(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	withOrigin := g.initRepo(f.base, "withorigin")
	const url = "https://example.com/o/r.git"
	g.run(withOrigin, "remote", "add", "origin", url)
	testkit.WriteFile(t, filepath.Join(withOrigin, "a", "b", "c.txt"), "x\n")

	tests := []struct {
		name string
		dir  string
		want Repo
	}{
		{"origin set", withOrigin,
			Repo{WorktreeRoot: withOrigin, MainRoot: withOrigin, RemoteURL: url, Key: "0f3fb56288fb"}},
		{"origin set, untracked subdirectory", filepath.Join(withOrigin, "a", "b"),
			Repo{WorktreeRoot: withOrigin, MainRoot: withOrigin, RemoteURL: url, Key: "0f3fb56288fb"}},
		{"no origin", f.main,
			Repo{WorktreeRoot: f.main, MainRoot: f.main, Key: sha12("root:" + f.main)}},
		{"no origin, subdirectory", filepath.Join(f.main, "src", "deep"),
			Repo{WorktreeRoot: f.main, MainRoot: f.main, Key: sha12("root:" + f.main)}},
		{"linked worktree shares main key", filepath.Join(f.linked, "src"),
			Repo{WorktreeRoot: f.linked, MainRoot: f.main, Key: sha12("root:" + f.main)}},
		{"submodule without origin is its own root", f.sub,
			Repo{WorktreeRoot: f.sub, MainRoot: f.sub, Key: sha12("root:" + f.sub)}},
		{"symlinked path resolves physically", f.linkToSub,
			Repo{WorktreeRoot: f.main, MainRoot: f.main, Key: sha12("root:" + f.main)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(context.Background(), tt.dir, g.runner())
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.dir, err)
			}
			if got != tt.want {
				t.Errorf("Resolve(%q)\n got  %+v\n want %+v", tt.dir, got, tt.want)
			}
		})
	}
}

func TestResolveSubmoduleIsNotModulesDir(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	got, err := Resolve(context.Background(), f.sub, g.runner())
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(f.super, ".git", "modules", "vendor", "lib")
	if got.MainRoot == modules || got.Key == sha12("root:"+modules) {
		t.Errorf("submodule resolved to tribunal 1.2.7's broken root %q", modules)
	}
	// tribunal 1.2.7's own derivation, reproduced to show this case is real.
	if ref := filepath.Dir(g.commonDir(f.sub)); ref != filepath.Join(f.super, ".git", "modules", "vendor") {
		t.Errorf("fixture is not a modules-dir submodule: parent of common = %q", ref)
	}
}

func TestResolveNotRepo(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	for _, dir := range []string{f.plain, f.bare, filepath.Join(f.base, "missing"), ""} {
		fr := &fakeRunner{out: "https://example.com/x\n"}
		got, err := Resolve(context.Background(), dir, fr.run)
		if !errors.Is(err, ErrNotRepo) {
			t.Errorf("Resolve(%q) = %+v, %v; want ErrNotRepo", dir, got, err)
		}
		if len(fr.calls) != 0 {
			t.Errorf("Resolve(%q) ran git %v outside a repository", dir, fr.calls)
		}
	}
}

func TestResolveRemoteOutputHandling(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	tests := []struct {
		name      string
		out       string
		err       error
		wantURL   string
		wantKeyOf string
	}{
		{"newline trimmed", "git@h:o/r.git\n", nil, "git@h:o/r.git", "remote:git@h:o/r.git"},
		{"no newline", "git@h:o/r.git", nil, "git@h:o/r.git", "remote:git@h:o/r.git"},
		{"other whitespace kept", " git@h:o/r.git \n", nil, " git@h:o/r.git ", "remote: git@h:o/r.git "},
		{"runner error means no remote", "ignored\n", errors.New("exit status 2"), "", "root:" + f.main},
		{"empty output means no remote", "\n", nil, "", "root:" + f.main},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr := &fakeRunner{out: tt.out, err: tt.err}
			got, err := Resolve(context.Background(), filepath.Join(f.main, "src"), fr.run)
			if err != nil {
				t.Fatal(err)
			}
			if got.RemoteURL != tt.wantURL || got.Key != sha12(tt.wantKeyOf) {
				t.Errorf("got url %q key %q; want url %q key of %q", got.RemoteURL, got.Key, tt.wantURL, tt.wantKeyOf)
			}
			wantCall := [][]string{{"remote", "get-url", "origin"}}
			if !slices.EqualFunc(fr.calls, wantCall, slices.Equal) || fr.dirs[0] != f.main {
				t.Errorf("git calls = %v in %v; want %v in %q", fr.calls, fr.dirs, wantCall, f.main)
			}
		})
	}
}
