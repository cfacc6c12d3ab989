package projectkey

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestOriginCacheAgreesWithGit changes the configuration that decides the
// origin URL in every way git lets it be changed — the repository's config,
// insteadOf rules in the user's, includes that appear later, conditional
// includes on the directory and on the branch, per-worktree config, the
// environment — and after each step checks the cached answer against
// `git remote get-url origin`, and that an unchanged configuration costs no
// git process.
func TestOriginCacheAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	home := envValue(g.Env, "HOME")
	cacheDir := filepath.Join(t.TempDir(), "cache")
	calls := 0
	counting := func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		calls++
		return g.runner()(ctx, dir, args...)
	}
	check := func(step, dir, wantURL string, wantCached bool) {
		t.Helper()
		calls = 0
		cache := OriginCache{Dir: cacheDir, Env: g.Env}
		repo, err := ResolveCached(context.Background(), dir, counting, cache)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		want, _ := g.try(dir, "remote", "get-url", "origin")
		if repo.RemoteURL != want || want != wantURL {
			t.Errorf("%s: cached origin %q, git says %q, want %q", step, repo.RemoteURL, want, wantURL)
		}
		if cached := calls == 0; cached != wantCached {
			t.Errorf("%s: %d git calls, want cached=%v", step, calls, wantCached)
		}
	}
	steps := []struct {
		name   string
		dir    string
		want   string
		change func()
	}{
		{"no origin", f.main, "", nil},
		{"origin added", f.main, "gh:o/main", func() { g.run(f.main, "remote", "add", "origin", "gh:o/main") }},
		{"insteadOf in ~/.gitconfig", f.main, "https://github.com/o/main", func() {
			testkit.WriteFile(t, filepath.Join(home, ".gitconfig"), "[url \"https://github.com/\"]\n\tinsteadOf = gh:\n")
		}},
		{"longer insteadOf in XDG config", f.main, "ssh://git@github.com/o/main", func() {
			testkit.WriteFile(t, filepath.Join(home, ".config", "git", "config"), "[url \"ssh://git@github.com/o/\"]\n\tinsteadOf = gh:o/\n")
		}},
		{"include of a file not there yet", f.main, "ssh://git@github.com/o/main", func() { g.run(f.main, "config", "include.path", "../extra.inc") }},
		{"the included file appears", f.main, "https://included.example/ain", func() {
			testkit.WriteFile(t, filepath.Join(f.main, "extra.inc"), "[url \"https://included.example/\"]\n\tinsteadOf = gh:o/m\n")
		}},
		{"the included file changes", f.main, "https://INCLUDED.example/ain", func() {
			testkit.WriteFile(t, filepath.Join(f.main, "extra.inc"), "[url \"https://INCLUDED.example/\"]\n\tinsteadOf = gh:o/m\n")
		}},
		{"includeIf gitdir in the user's config", f.main, "https://gitdir.example/in", func() {
			testkit.WriteFile(t, filepath.Join(home, "gitdir.inc"), "[url \"https://gitdir.example/\"]\n\tinsteadOf = gh:o/ma\n")
			appendFile(t, filepath.Join(home, ".gitconfig"), "[includeIf \"gitdir:"+f.base+"/\"]\n\tpath = ~/gitdir.inc\n")
		}},
		{"includeIf onbranch, on another branch", f.main, "https://gitdir.example/in", func() {
			testkit.WriteFile(t, filepath.Join(home, "branch.inc"), "[url \"https://branch.example/\"]\n\tinsteadOf = gh:o/mai\n")
			appendFile(t, filepath.Join(home, ".gitconfig"), "[includeIf \"onbranch:side\"]\n\tpath = ~/branch.inc\n")
		}},
		{"switch to the branch", f.main, "https://branch.example/n", func() { g.run(f.main, "checkout", "-q", "-b", "side") }},
		{"switch back", f.main, "https://gitdir.example/in", func() { g.run(f.main, "checkout", "-q", "main") }},
		{"linked worktree", f.linked, "https://gitdir.example/in", nil},
		{"per-worktree config", f.linked, "https://wt.example/", func() {
			g.run(f.main, "config", "extensions.worktreeConfig", "true")
			g.run(f.linked, "config", "--worktree", "url.https://wt.example/.insteadOf", "gh:o/main")
		}},
		{"no remote in a submodule", f.sub, "", nil},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		check(s.name, s.dir, s.want, false)
		check(s.name+" (again)", s.dir, s.want, true)
	}

	// Another environment is another answer: GIT_CONFIG_* adds config.
	calls = 0
	env := append(append([]string{}, g.Env...), "GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=url.https://env.example/.insteadOf", "GIT_CONFIG_VALUE_0=gh:o/main")
	run := ExecGit(g.Bin, env)
	repo, err := ResolveCached(context.Background(), f.main, func(ctx context.Context, d string, a ...string) ([]byte, error) {
		calls++
		return run(ctx, d, a...)
	}, OriginCache{Dir: cacheDir, Env: env})
	if err != nil || calls == 0 || !strings.HasPrefix(repo.RemoteURL, "https://env.example/") {
		t.Errorf("environment config: %q, %d calls, %v", repo.RemoteURL, calls, err)
	}
}

// TestOriginCacheRefusesWhatItCannotTrust: a damaged, foreign or oversized
// entry is a miss, answered by git, never an answer.
func TestOriginCacheRefusesWhatItCannotTrust(t *testing.T) {
	g := newTGit(t)
	f := newFixture(t, g)
	g.run(f.main, "remote", "add", "origin", "https://example.com/real.git")
	dir := filepath.Join(t.TempDir(), "cache")
	c := OriginCache{Dir: dir, Env: g.Env}
	if _, err := ResolveCached(context.Background(), f.main, g.runner(), c); err != nil {
		t.Fatal(err)
	}
	entry := c.path(f.main)
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("no cache entry written: %v", err)
	}
	forged := strings.Replace(string(good), "https://example.com/real.git", "https://evil.example/x.git", 1)
	for name, content := range map[string]string{
		"truncated":     string(good[:len(good)/2]),
		"other version": strings.Replace(string(good), `"v":1`, `"v":99`, 1),
		"other tree":    strings.Replace(string(good), f.main, f.linked, 1),
		"no files":      `{"v":1,"worktree":"` + f.main + `","url":"https://evil.example/x.git","has_url":true,"files":[]}`,
		"huge":          strings.Repeat(" ", maxOriginCacheBytes+1) + forged,
	} {
		if err := os.WriteFile(entry, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		repo, err := ResolveCached(context.Background(), f.main, g.runner(), c)
		if err != nil || repo.RemoteURL != "https://example.com/real.git" {
			t.Errorf("%s entry: origin %q, %v", name, repo.RemoteURL, err)
		}
	}
	// A FIFO in place of the entry must not hang the hook.
	_ = os.Remove(entry)
	if err := mkfifo(entry); err == nil {
		if repo, err := ResolveCached(context.Background(), f.main, g.runner(), c); err != nil || repo.RemoteURL != "https://example.com/real.git" {
			t.Errorf("FIFO entry: origin %q, %v", repo.RemoteURL, err)
		}
	}
}

func TestConfigOrigins(t *testing.T) {
	out := "file:.git/config\x00remote.origin.url\nx\x00" +
		"command line:\x00core.fsmonitor\nfalse\x00" +
		"file:/home/u/.gitconfig\x00include.path\n~/inc\x00" +
		"file:/home/u/.gitconfig\x00includeif.gitdir:/w/.path\nrel/inc\x00"
	got, ok := configOrigins([]byte(out), "/w/repo", "/home/u")
	want := []string{"/w/repo/.git/config", "/home/u/.gitconfig", "/home/u/inc", "/home/u/.gitconfig", "/home/u/rel/inc"}
	if !ok || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %v %v, want %v", got, ok, want)
	}
	for name, bad := range map[string]string{
		"blob origin":           "blob:abc\x00remote.origin.url\nx\x00",
		"~user include":         "file:/c\x00include.path\n~bob/x\x00",
		"relative from command": "command line:\x00include.path\nrel\x00",
	} {
		if _, ok := configOrigins([]byte(bad), "/w", "/home/u"); ok {
			t.Errorf("%s: accepted, want a miss that is never cached", name)
		}
	}
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

func appendFile(t *testing.T, p, content string) {
	t.Helper()
	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(content); err != nil {
		t.Fatal(err)
	}
}
