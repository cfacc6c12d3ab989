package githook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestInstallUninstall(t *testing.T) {
	foreign := "#!/bin/sh\necho mine\n"
	for _, tc := range []struct {
		name      string
		existing  string // "" no file
		install   error  // the kind of error Install returns (nil: installed)
		uninstall error
		left      string // the file's content after uninstall ("" gone)
	}{
		{name: "fresh", install: nil, uninstall: nil},
		{name: "reinstall over its own", existing: Script(PreCommit, true), install: nil, uninstall: nil},
		{name: "someone else's", existing: foreign, install: &ExistsError{}, uninstall: &NotOursError{}, left: foreign},
		{name: "marker not on a line of its own", existing: "#!/bin/sh\necho '" + Marker + "'\n", install: &ExistsError{}, uninstall: &NotOursError{}, left: "#!/bin/sh\necho '" + Marker + "'\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			path := filepath.Join(dir, "pre-commit")
			if tc.existing != "" {
				must(t, os.MkdirAll(dir, 0o755))
				must(t, os.WriteFile(path, []byte(tc.existing), 0o755))
			}
			got, err := Install(dir, PreCommit, false)
			if got != path || reflect.TypeOf(err) != reflect.TypeOf(tc.install) {
				t.Fatalf("Install = %q, %v; want %q, %T", got, err, path, tc.install)
			}
			if err == nil {
				data, _ := os.ReadFile(path)
				st, _ := os.Stat(path)
				if string(data) != Script(PreCommit, false) || st.Mode().Perm()&0o111 == 0 {
					t.Errorf("installed %q mode %v", data, st.Mode())
				}
			} else if !strings.Contains(err.(*ExistsError).Chain(), "tribunal-session hook run pre-commit") {
				t.Errorf("the chain line %q does not call hook run", err.(*ExistsError).Chain())
			}
			_, err = Uninstall(dir, PreCommit)
			if reflect.TypeOf(err) != reflect.TypeOf(tc.uninstall) {
				t.Fatalf("Uninstall: %v, want %T", err, tc.uninstall)
			}
			data, readErr := os.ReadFile(path)
			if string(data) != tc.left || (tc.left == "") != (readErr != nil) {
				t.Errorf("after uninstall: %q (%v), want %q", data, readErr, tc.left)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) > 1 {
				t.Errorf("stray files in the hooks directory: %v", entries)
			}
			if _, err := Uninstall(dir, PreCommit); tc.left == "" && !errors.Is(err, ErrNotInstalled) {
				t.Errorf("a second uninstall: %v, want ErrNotInstalled", err)
			}
		})
	}
}

func TestScript(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		gate bool
		want string
	}{
		{PreCommit, false, `exec tribunal-session hook run pre-commit "$@"`},
		{PrePush, true, `exec tribunal-session hook run pre-push --gate "$@"`},
	} {
		s := Script(tc.kind, tc.gate)
		if !strings.HasPrefix(s, "#!/bin/sh\n") || !IsOurs([]byte(s)) || !strings.Contains(s, tc.want+"\n") {
			t.Errorf("Script(%s, %v) = %q", tc.kind, tc.gate, s)
		}
	}
}

func TestPushRanges(t *testing.T) {
	z := strings.Repeat("0", 40)
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	newBase := func(u Update) string {
		if u.RemoteRef == "refs/heads/orphan" {
			return ""
		}
		return "origin/main"
	}
	for _, tc := range []struct {
		name     string
		from, to string
		stdin    string
		want     []Range
		skipped  int
	}{
		{"pre-commit framework's range", a, b, "", []Range{{a, b}}, 0},
		{"an update", "", "", "refs/heads/x " + b + " refs/heads/x " + a + "\n", []Range{{a, b}}, 0},
		{"a new branch", "", "", "refs/heads/x " + b + " refs/heads/x " + z + "\n", []Range{{"origin/main", b}}, 0},
		{"a new branch with no base", "", "", "refs/heads/o " + b + " refs/heads/orphan " + z + "\n", nil, 1},
		{"a deletion", "", "", "(delete) " + z + " refs/heads/x " + a + "\n", nil, 0},
		{"two refs", "", "", "refs/heads/x " + b + " refs/heads/x " + a + "\nrefs/heads/y " + c + " refs/heads/y " + b + "\n", []Range{{a, b}, {b, c}}, 0},
		{"nothing pushed", "", "", "", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ups, err := ParsePush(strings.NewReader(tc.stdin))
			if err != nil {
				t.Fatal(err)
			}
			got, skipped := PushRanges(tc.from, tc.to, ups, newBase)
			if !reflect.DeepEqual(got, tc.want) || len(skipped) != tc.skipped {
				t.Errorf("PushRanges = %v, skipped %q; want %v, %d skipped", got, skipped, tc.want, tc.skipped)
			}
		})
	}
	if _, err := ParsePush(strings.NewReader("refs/heads/x abc\n")); err == nil {
		t.Error("a short pre-push line was read")
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		kind    Kind
		review  int
		gate    bool
		exit    int
		lineHas string
	}{
		{PreCommit, 0, true, 0, ""},
		{PreCommit, 10, false, 0, "advisory: the commit goes ahead"},
		{PreCommit, 10, true, 10, "commit blocked by the review above (git commit --no-verify"},
		{PrePush, 10, true, 10, "push blocked by the review above (git push --no-verify"},
		{PreCommit, 3, true, 0, "no verdict; the commit goes ahead"},
		{PrePush, 2, true, 2, "push blocked: the review could not run"},
		{PrePush, 2, false, 0, "could not run; the push goes ahead"},
	} {
		exit, line := Outcome(tc.kind, tc.review, tc.gate)
		if exit != tc.exit || !strings.Contains(line, tc.lineHas) || (tc.lineHas == "") != (line == "") {
			t.Errorf("Outcome(%s, %d, gate %v) = %d, %q; want %d, %q", tc.kind, tc.review, tc.gate, exit, line, tc.exit, tc.lineHas)
		}
	}
}

func TestFailOnAndArgs(t *testing.T) {
	for _, tc := range []struct {
		kind            Kind
		flag, env, want string
	}{
		{PreCommit, "", "", "critical"},
		{PrePush, "", "", "major"},
		{PrePush, "", "minor", "minor"},
		{PreCommit, "blocker", "minor", "blocker"},
	} {
		if got := FailOn(tc.kind, tc.flag, tc.env); got != tc.want {
			t.Errorf("FailOn(%s, %q, %q) = %q, want %q", tc.kind, tc.flag, tc.env, got, tc.want)
		}
	}
	if got := ReviewArgs(PrePush, Range{"a", "b"}, "major"); !reflect.DeepEqual(got, []string{"--base", "a", "--head", "b", "--gate", "--fail-on", "major"}) {
		t.Errorf("pre-push args %q", got)
	}
	if got := ReviewArgs(PreCommit, Range{}, "critical"); got[0] != "--staged" {
		t.Errorf("pre-commit args %q", got)
	}
	if _, err := ParseKind("post-commit"); err == nil {
		t.Error("post-commit was taken as a hook tribunal runs as")
	}
}

// TestHooksDir runs git: the hooks directory of a repository, of its
// linked worktree (the common one), and under core.hooksPath (relative
// to the worktree's root, as git runs it; ~ expanded).
func TestHooksDir(t *testing.T) {
	g := testkit.NewGit(t)
	root := t.TempDir()
	r := g.Init(filepath.Join(root, "repo"))
	repo, home := r.Dir, g.Home
	git := projectkey.ExecGit(g.Bin, g.Env)
	ctx := context.Background()
	r.Commit("x")
	g.Run(repo, "worktree", "add", "-q", filepath.Join(root, "wt"))
	for _, tc := range []struct {
		name, dir, hooksPath, want string
	}{
		{"repository", repo, "", filepath.Join(repo, ".git", "hooks")},
		{"linked worktree", filepath.Join(root, "wt"), "", filepath.Join(repo, ".git", "hooks")},
		{"core.hooksPath relative", repo, ".githooks", filepath.Join(repo, ".githooks")},
		{"core.hooksPath in a worktree", filepath.Join(root, "wt"), ".githooks", filepath.Join(root, "wt", ".githooks")},
		{"core.hooksPath with ~", repo, "~/hooks", filepath.Join(home, "hooks")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.hooksPath != "" {
				g.Run(repo, "config", "core.hooksPath", tc.hooksPath)
				defer g.Run(repo, "config", "--unset", "core.hooksPath")
			}
			got, err := HooksDir(ctx, git, tc.dir)
			if err != nil || got != tc.want {
				t.Errorf("HooksDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
