package review

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// repo makes a repository: main with a.txt, branch feature adding b.txt
// and changing a.txt, and returns it and the production git runner.
func repo(t *testing.T) (*testkit.Repo, projectkey.GitRunner) {
	t.Helper()
	r := testkit.GitRepo(t)
	r.WriteFile("a.txt", "one\n")
	r.Commit("one")
	r.Git("checkout", "-q", "-b", "feature")
	r.WriteFile("a.txt", "one\ntwo\n")
	r.WriteFile("b.txt", "new\n")
	r.Commit("two")
	r.Git("checkout", "-q", "main")
	r.WriteFile("c.txt", "main moved on\n")
	r.Commit("three")
	r.Git("checkout", "-q", "feature")
	return r, projectkey.ExecGit("git", r.Env)
}

func TestResolve(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	ctx := context.Background()
	binary := "diff --git a/x.png b/x.png\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/x.png differ\n"
	text := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n one\n+three\n"
	cases := []struct {
		name    string
		in      Input
		kind    string
		files   []string
		err     string // substring of an *InputError
		nothing string // substring of a *NothingError
	}{
		{name: "range: merge-base diff, not main's later commit", in: Input{Base: "main"}, kind: KindRange, files: []string{"a.txt", "b.txt"}},
		{name: "range with head", in: Input{Base: "main", Head: "feature"}, kind: KindRange, files: []string{"a.txt", "b.txt"}},
		{name: "empty range", in: Input{Base: "feature", Head: "feature"}, nothing: "no file changed in feature...feature"},
		{name: "unknown base", in: Input{Base: "nope"}, err: `--base "nope": unknown revision`},
		{name: "unknown head", in: Input{Base: "main", Head: "nope"}, err: `--head "nope": unknown revision`},
		{name: "option as ref", in: Input{Base: "--all"}, err: "is not a ref"},
		{name: "head without base", in: Input{Head: "feature"}, err: "--head needs --base"},
		{name: "nothing named", in: Input{}, err: "nothing named"},
		{name: "two inputs", in: Input{Staged: true, Base: "main"}, err: "name different changes"},
		{name: "nothing staged", in: Input{Staged: true}, nothing: "nothing to review: no file changed in the staged changes"},
		{name: "diff", in: Input{Diff: []byte(text), DiffName: "-"}, kind: KindDiff, files: []string{"a.txt"}},
		{name: "diff on a base", in: Input{Diff: []byte(text), DiffName: "p", Base: "main"}, kind: KindDiff, files: []string{"a.txt"}},
		{name: "empty diff", in: Input{Diff: []byte("\n"), DiffName: "-"}, nothing: "from standard input is empty"},
		{name: "garbage diff", in: Input{Diff: []byte("hello\n"), DiffName: "p"}, err: "does not parse"},
		{name: "binary-only diff", in: Input{Diff: []byte(binary), DiffName: "p"}, nothing: "only binary files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Resolve(ctx, git, dir, tc.in)
			var ie *InputError
			var ne *NothingError
			switch {
			case tc.err != "":
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.err) || ie.Hint == "" {
					t.Fatalf("err = %v, want an input error with %q and a hint", err, tc.err)
				}
				return
			case tc.nothing != "":
				if !errors.As(err, &ne) || !strings.Contains(err.Error(), tc.nothing) {
					t.Fatalf("err = %v, want nothing to review: %q", err, tc.nothing)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if c.Kind != tc.kind || c.BaseTree == "" || c.HeadKey == "" || c.Base == "" {
				t.Fatalf("change = %+v", c)
			}
			var got []string
			for _, f := range c.Files {
				got = append(got, f.Path())
			}
			if strings.Join(got, ",") != strings.Join(tc.files, ",") {
				t.Fatalf("files = %v, want %v", got, tc.files)
			}
		})
	}
}

func TestResolveStaged(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	r.WriteFile("d.txt", "staged\n")
	r.WriteFile("e.txt", "not staged\n")
	if _, err := git(context.Background(), dir, "add", "d.txt"); err != nil {
		t.Fatal(err)
	}
	c, err := Resolve(context.Background(), git, dir, Input{Staged: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 1 || c.Files[0].Path() != "d.txt" || !strings.HasPrefix(c.HeadKey, "patch:") {
		t.Fatalf("staged change = %+v", c)
	}
}

func TestResolveShallow(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	clone := filepath.Join(t.TempDir(), "clone")
	ctx := context.Background()
	if out, err := git(ctx, dir, "clone", "-q", "--depth=1", "--no-single-branch", "file://"+dir, clone); err != nil {
		t.Fatalf("clone: %v %s", err, out)
	}
	_, err := Resolve(ctx, git, clone, Input{Base: "origin/main", Head: "origin/feature"})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "shallow clone") || !strings.Contains(ie.Hint, "git fetch --deepen") || !strings.Contains(ie.Hint, "fetch-depth: 0") {
		t.Fatalf("err = %v (%+v), want the shallow-clone error saying what to fetch", err, ie)
	}
	_, err = Resolve(ctx, git, clone, Input{Base: "origin/gone"})
	if !errors.As(err, &ie) || !strings.Contains(ie.Hint, "shallow clone") {
		t.Fatalf("unknown ref in a shallow clone: %v", err)
	}
}

func TestCacheKey(t *testing.T) {
	c := &Change{Kind: KindRange, BaseTree: "b", HeadKey: "h"}
	k := CacheKey(c, 1000, "jury")
	differ := map[string]string{
		"base tree":  CacheKey(&Change{Kind: KindRange, BaseTree: "b2", HeadKey: "h"}, 1000, "jury"),
		"head tree":  CacheKey(&Change{Kind: KindRange, BaseTree: "b", HeadKey: "h2"}, 1000, "jury"),
		"kind":       CacheKey(&Change{Kind: KindDiff, BaseTree: "b", HeadKey: "h"}, 1000, "jury"),
		"diff bound": CacheKey(c, 2000, "jury"),
		"jury":       CacheKey(c, 1000, "jury2"),
	}
	for name, other := range differ {
		if other == k {
			t.Errorf("a different %s gives the same key", name)
		}
	}
	if CacheKey(&Change{Kind: KindRange, BaseTree: "b", HeadKey: "h", Base: "other-commit"}, 1000, "jury") != k {
		t.Error("the key depends on the commit, not only on the trees")
	}
}

func TestExit(t *testing.T) {
	major, _ := severity.Parse("major")
	minor, _ := severity.Parse("minor")
	cases := []struct {
		name    string
		g       Gating
		outcome string
		worst   severity.Level
		ok      bool
		want    int
	}{
		{"accepted", Gating{}, Accepted, 0, false, 0},
		{"rejected", Gating{}, Rejected, 0, false, 10},
		{"no verdict", Gating{}, NoVerdict, 0, false, 3},
		{"CI is advisory: rejected", Gating{CI: true}, Rejected, major, true, 0},
		{"CI is advisory: no verdict never blocks", Gating{CI: true}, NoVerdict, 0, false, 0},
		{"CI with --gate", Gating{CI: true, Gate: true}, Rejected, 0, false, 10},
		{"CI with --gate, no verdict", Gating{CI: true, Gate: true}, NoVerdict, 0, false, 3},
		{"--fail-on: finding above", Gating{FailOn: minor}, Accepted, major, true, 10},
		{"--fail-on: finding at", Gating{FailOn: major}, Accepted, major, true, 10},
		{"--fail-on: finding below, rejected anyway", Gating{FailOn: major}, Rejected, minor, true, 0},
		{"--fail-on: no finding", Gating{FailOn: major}, Rejected, 0, false, 0},
		{"--fail-on: no verdict", Gating{FailOn: major}, NoVerdict, 0, false, 3},
		{"--fail-on in CI is advisory", Gating{CI: true, FailOn: minor}, Accepted, major, true, 0},
	}
	for _, tc := range cases {
		if got := tc.g.Exit(tc.outcome, tc.worst, tc.ok); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}
