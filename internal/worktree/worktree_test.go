package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/projectkey"
)

type fixture struct {
	t   testing.TB
	env []string
	m   *Manager
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") || name == "HOME" || name == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com")
	f := &fixture{t: t, env: env}
	f.m = &Manager{Git: projectkey.ExecGit("git", env), Dir: filepath.Join(t.TempDir(), "worktrees"), PID: os.Getpid()}
	return f
}

func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = f.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// repo makes a repository with a commit, then a dirty state: a staged
// edit, an unstaged edit, an untracked file and an ignored file.
func (f *fixture) repo() string {
	dir := filepath.Join(f.t.TempDir(), "repo")
	f.git(f.t.TempDir(), "init", "-q", "-b", "main", dir)
	write(f.t, filepath.Join(dir, "a.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	write(f.t, filepath.Join(dir, "b.txt"), "b\n")
	write(f.t, filepath.Join(dir, ".gitignore"), "ignored/\n")
	f.git(dir, "add", "-A")
	f.git(dir, "commit", "-q", "-m", "init")
	write(f.t, filepath.Join(dir, "b.txt"), "b staged\n")
	f.git(dir, "add", "b.txt")
	write(f.t, filepath.Join(dir, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	write(f.t, filepath.Join(dir, "new.txt"), "untracked\n")
	write(f.t, filepath.Join(dir, "ignored", "x"), "secret\n")
	return dir
}

// state is everything of the user's repository that must not change: the
// status, the index file's bytes, HEAD, the branch list, the stash, and
// every file's content.
func (f *fixture) state(dir string) string {
	f.t.Helper()
	var b strings.Builder
	b.WriteString(f.git(dir, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=all") + "\n")
	idx, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	b.Write(idx)
	b.WriteString(f.git(dir, "rev-parse", "HEAD") + "\n")
	b.WriteString(strings.Join(userRefs(f.git(dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/stash")), "\n") + "\n")
	var paths []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() && info.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !info.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		b.WriteString(p + "\n" + read(f.t, p))
	}
	return b.String()
}

func TestCreateSnapshotsWithoutTouchingTheUser(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	// Witness hooks: none of the user's hooks may run from our git.
	witness := filepath.Join(t.TempDir(), "hook-ran")
	for _, h := range []string{"post-checkout", "post-index-change", "reference-transaction", "post-commit", "pre-commit"} {
		write(t, filepath.Join(repo, ".git", "hooks", h), "#!/bin/sh\necho "+h+" $PWD $(ps -o args= $PPID) >> "+witness+"\n")
		os.Chmod(filepath.Join(repo, ".git", "hooks", h), 0o755)
	}
	before := f.state(repo)
	if err := f.m.Check(ctx, repo); err != nil {
		t.Fatal(err)
	}
	task, err := f.m.Create(ctx, repo, "01TASK")
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(task.Path, "a.txt")); !strings.HasPrefix(got, "ONE\n") {
		t.Errorf("unstaged edit missing from the task worktree: %q", got)
	}
	if got := read(t, filepath.Join(task.Path, "b.txt")); got != "b staged\n" {
		t.Errorf("staged edit missing: %q", got)
	}
	if got := read(t, filepath.Join(task.Path, "new.txt")); got != "untracked\n" {
		t.Errorf("untracked file missing: %q", got)
	}
	if _, err := os.Stat(filepath.Join(task.Path, "ignored", "x")); err == nil {
		t.Error("an ignored file was copied into the task worktree")
	}
	if after := f.state(repo); after != before {
		t.Errorf("the user's repository changed:\n--- before\n%s\n--- after\n%s", before, after)
	}
	if f.git(task.Path, "-c", "core.hooksPath=/dev/null", "status", "--porcelain") != "" {
		t.Errorf("the task worktree is not clean at its snapshot: %s", f.git(task.Path, "-c", "core.hooksPath=/dev/null", "status", "--porcelain"))
	}

	// The actor edits line 7 and adds a file; the user meanwhile edits line 2.
	write(t, filepath.Join(task.Path, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n")
	write(t, filepath.Join(task.Path, "added.txt"), "by the actor\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	patch, files, err := f.m.Diff(ctx, task.Path, task.Snapshot, task.Head)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(patch, "+SEVEN") || strings.Contains(patch, "+ONE") || strings.Contains(patch, "staged") {
		t.Errorf("the diff against the snapshot is not the actor's change alone:\n%s", patch)
	}
	if len(files) != 2 || files[0].Path != "a.txt" || files[0].Status != "modified" || files[1].Path != "added.txt" || files[1].Status != "added" || files[1].Added != 1 {
		t.Errorf("files = %+v", files)
	}
	write(t, filepath.Join(repo, "a.txt"), "ONE\nTWO\nthree\nfour\nfive\nsix\nseven\n")
	indexBefore := read(t, filepath.Join(repo, ".git", "index"))
	res, err := f.m.Apply(ctx, task)
	if err != nil || !res.Applied {
		t.Fatalf("apply: %+v, %v", res, err)
	}
	if got := read(t, filepath.Join(repo, "a.txt")); got != "ONE\nTWO\nthree\nfour\nfive\nsix\nSEVEN\n" {
		t.Errorf("the accepted change did not land beside the user's edit: %q", got)
	}
	if got := read(t, filepath.Join(repo, "added.txt")); got != "by the actor\n" {
		t.Errorf("added file: %q", got)
	}
	if read(t, filepath.Join(repo, ".git", "index")) != indexBefore {
		t.Error("apply changed the user's index")
	}
	if err := f.m.Finish(ctx, task, false); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(witness); err == nil {
		t.Errorf("the user's git hooks ran: %s", data)
	}
	if _, err := os.Stat(task.Path); err == nil {
		t.Error("the task worktree is still there")
	}
	if out := f.git(repo, "branch", "--list", "tribunal/*"); out != "" {
		t.Errorf("task branch left behind: %s", out)
	}
	if out := f.git(repo, "worktree", "list", "--porcelain"); strings.Count(out, "worktree ") != 1 {
		t.Errorf("worktree list: %s", out)
	}
}

func TestApplyConflictLeavesTheTreeAlone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	task, err := f.m.Create(ctx, repo, "01CONFLICT")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(task.Path, "a.txt"), "actor\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	write(t, filepath.Join(task.Path, "other.txt"), "x\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "a.txt"), "user\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	before := f.state(repo)
	res, err := f.m.Apply(ctx, task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || len(res.Conflicts) != 1 || res.Conflicts[0] != "a.txt" {
		t.Errorf("result = %+v", res)
	}
	if after := f.state(repo); after != before {
		t.Errorf("a conflicting apply changed the user's tree:\n%s\n---\n%s", before, after)
	}
	if err := f.m.Finish(ctx, task, true); err != nil {
		t.Fatal(err)
	}
	kept, err := f.m.Load(task.ID)
	if err != nil || kept.State != Kept {
		t.Fatalf("kept record: %+v, %v", kept, err)
	}
	if f.git(repo, "rev-parse", "--verify", "refs/heads/tribunal/01CONFLICT") != task.Head {
		t.Error("the kept branch does not point at the task's last commit")
	}
	// The user resolves by taking their edit back; apply now succeeds.
	write(t, filepath.Join(repo, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	res, err = f.m.Apply(ctx, kept)
	if err != nil || !res.Applied {
		t.Fatalf("second apply: %+v %v", res, err)
	}
	if got := read(t, filepath.Join(repo, "a.txt")); !strings.HasPrefix(got, "actor\n") {
		t.Errorf("a.txt = %q", got)
	}
	if err := f.m.Discard(ctx, kept); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Load(task.ID); err == nil {
		t.Error("record survives discard")
	}
}

func TestRepositoryShapes(t *testing.T) {
	ctx := context.Background()
	t.Run("no commits", func(t *testing.T) {
		f := newFixture(t)
		dir := filepath.Join(t.TempDir(), "r")
		f.git(t.TempDir(), "init", "-q", dir)
		write(t, filepath.Join(dir, "x.txt"), "x\n")
		task, err := f.m.Create(ctx, dir, "01UNBORN")
		if err != nil {
			t.Fatal(err)
		}
		if read(t, filepath.Join(task.Path, "x.txt")) != "x\n" {
			t.Error("untracked file of an unborn repository missing")
		}
		write(t, filepath.Join(task.Path, "y.txt"), "y\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied || read(t, filepath.Join(dir, "y.txt")) != "y\n" {
			t.Fatalf("apply: %+v %v", res, err)
		}
		if _, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "HEAD").Output(); err == nil {
			t.Error("the user's unborn branch got a commit")
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("detached HEAD and a worktree of a worktree", func(t *testing.T) {
		f := newFixture(t)
		repo := f.repo()
		f.git(repo, "stash", "-u", "-q")
		f.git(repo, "checkout", "-q", "--detach")
		linked := filepath.Join(t.TempDir(), "linked")
		f.git(repo, "worktree", "add", "-q", "--detach", linked)
		write(t, filepath.Join(linked, "b.txt"), "linked edit\n")
		task, err := f.m.Create(ctx, linked, "01LINKED")
		if err != nil {
			t.Fatal(err)
		}
		if read(t, filepath.Join(task.Path, "b.txt")) != "linked edit\n" {
			t.Error("the linked worktree's edit is missing")
		}
		if f.git(linked, "rev-parse", "--abbrev-ref", "HEAD") != "HEAD" {
			t.Error("the user's HEAD is no longer detached")
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("bare repository", func(t *testing.T) {
		f := newFixture(t)
		dir := filepath.Join(t.TempDir(), "bare.git")
		f.git(t.TempDir(), "init", "-q", "--bare", dir)
		if err := f.m.Check(ctx, dir); err == nil || !strings.Contains(err.Error(), "not a git work tree") {
			t.Errorf("Check(bare) = %v", err)
		}
	})
	t.Run("no repository", func(t *testing.T) {
		f := newFixture(t)
		if err := f.m.Check(ctx, t.TempDir()); err == nil {
			t.Error("Check outside a repository succeeded")
		}
	})
	t.Run("submodule", func(t *testing.T) {
		f := newFixture(t)
		sub := f.repo()
		f.git(sub, "commit", "-q", "-am", "sub")
		repo := f.repo()
		f.git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mods/sub")
		task, err := f.m.Create(ctx, repo, "01SUBMOD")
		if err != nil {
			t.Fatal(err)
		}
		if len(task.Submodules) != 1 || task.Submodules[0] != "mods/sub" {
			t.Errorf("submodules = %v", task.Submodules)
		}
		write(t, filepath.Join(task.Path, "top.txt"), "t\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply beside a submodule: %+v %v", res, err)
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("git-lfs", func(t *testing.T) {
		if _, err := exec.LookPath("git-lfs"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("git-lfs is not installed (.ci/run installs it)")
			}
			t.Skip("git-lfs is not installed; apt-get install git-lfs to run this test")
		}
		f := newFixture(t)
		repo := f.repo()
		f.git(repo, "lfs", "install", "--local")
		f.git(repo, "lfs", "track", "*.bin")
		write(t, filepath.Join(repo, "data.bin"), "first version\x00binary\n")
		f.git(repo, "add", ".gitattributes", "data.bin")
		f.git(repo, "commit", "-q", "-m", "lfs")
		if out := f.git(repo, "show", "HEAD:data.bin"); !strings.HasPrefix(out, "version https://git-lfs") {
			t.Fatalf("not stored as an LFS pointer: %q", out)
		}
		task, err := f.m.Create(ctx, repo, "01LFS")
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(task.Path, "data.bin")); got != "first version\x00binary\n" {
			t.Errorf("the task worktree holds %q, not the LFS content", got)
		}
		write(t, filepath.Join(task.Path, "data.bin"), "second version\x00binary\n")
		f.m.Commit(ctx, task, "it")
		if out := f.git(repo, "show", task.Head+":data.bin"); !strings.HasPrefix(out, "version https://git-lfs") {
			t.Errorf("the iteration commit does not store an LFS pointer: %q", out)
		}
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply an LFS change: %+v %v", res, err)
		}
		if got := read(t, filepath.Join(repo, "data.bin")); got != "second version\x00binary\n" {
			t.Errorf("data.bin = %q", got)
		}
		f.m.Finish(ctx, task, false)
	})
	t.Run("clean and smudge filters (as git-lfs uses them)", func(t *testing.T) {
		f := newFixture(t)
		repo := f.repo()
		// A filter that stores upper case and checks out lower case.
		f.git(repo, "config", "filter.up.clean", "tr a-z A-Z")
		f.git(repo, "config", "filter.up.smudge", "tr A-Z a-z")
		write(t, filepath.Join(repo, ".gitattributes"), "*.up filter=up\n")
		write(t, filepath.Join(repo, "f.up"), "hello\n")
		task, err := f.m.Create(ctx, repo, "01FILTER")
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(task.Path, "f.up")); got != "hello\n" {
			t.Errorf("the task worktree sees %q, not the user's smudged content", got)
		}
		write(t, filepath.Join(task.Path, "f.up"), "hello\nworld\n")
		f.m.Commit(ctx, task, "it")
		res, err := f.m.Apply(ctx, task)
		if err != nil || !res.Applied {
			t.Fatalf("apply through a filter: %+v %v", res, err)
		}
		if got := read(t, filepath.Join(repo, "f.up")); got != "hello\nworld\n" {
			t.Errorf("f.up = %q", got)
		}
		f.m.Finish(ctx, task, false)
	})
}

func TestCleanupRemovesCrashedRuns(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	crashed, err := f.m.Create(ctx, repo, "01CRASHED")
	if err != nil {
		t.Fatal(err)
	}
	live, err := f.m.Create(ctx, repo, "01LIVE")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := f.m.Create(ctx, repo, "01KEPT")
	if err != nil {
		t.Fatal(err)
	}
	f.m.Finish(ctx, kept, true)
	crashed.PID = 999999999
	f.m.save(crashed)
	os.MkdirAll(filepath.Join(f.m.Dir, "01ORPHAN"), 0o700)
	os.MkdirAll(filepath.Join(f.m.Dir, "01FRESH.apply"), 0o700)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(f.m.Dir, "01ORPHAN"), old, old)
	done := f.m.Cleanup(ctx, repo)
	sort.Strings(done)
	if strings.Join(done, ",") != "01CRASHED,01ORPHAN" {
		t.Errorf("cleaned %v", done)
	}
	if _, err := os.Stat(crashed.Path); err == nil {
		t.Error("crashed worktree still there")
	}
	if _, err := os.Stat(live.Path); err != nil {
		t.Error("a live run's worktree was removed")
	}
	if _, err := os.Stat(filepath.Join(f.m.Dir, "01FRESH.apply")); err != nil {
		t.Error("a fresh scratch directory (an apply running now) was removed")
	}
	if out := f.git(repo, "branch", "--list", "tribunal/*", "--format=%(refname:short)"); out != "tribunal/01KEPT\ntribunal/01LIVE" {
		t.Errorf("branches after cleanup: %q", out)
	}
}

func TestParsers(t *testing.T) {
	files := parseNameStatus("M\x00a b.txt\x00R087\x00old\x00new\x00A\x00line\nbreak\x00")
	want := []FileChange{{Path: "a b.txt", Status: "modified"}, {Path: "new", OldPath: "old", Status: "renamed"}, {Path: "line\nbreak", Status: "added"}}
	if len(files) != len(want) {
		t.Fatalf("files = %+v", files)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("file %d = %+v, want %+v", i, files[i], want[i])
		}
	}
	counts := parseNumstat("1\t2\ta b.txt\x00-\t-\tbin\x003\t0\t\x00old\x00new\x00")
	if c := counts["a b.txt"]; c.Added != 1 || c.Deleted != 2 {
		t.Errorf("a b.txt = %+v", c)
	}
	if !counts["bin"].Binary || counts["new"].Added != 3 {
		t.Errorf("counts = %+v", counts)
	}
	for v, ok := range map[string]bool{"git version 2.39.5": true, "git version 2.38.0": true, "git version 2.37.9": false, "git version 3.0": true, "nonsense": false} {
		if versionAtLeast(v, 2, 38) != ok {
			t.Errorf("versionAtLeast(%q) != %v", v, ok)
		}
	}
}

// userRefs drops the task branches, which are ours to create.
func userRefs(list string) []string {
	var out []string
	for _, l := range strings.Split(list, "\n") {
		if !strings.HasPrefix(l, "refs/heads/"+BranchPrefix) {
			out = append(out, l)
		}
	}
	return out
}

// A same-size edit made in the same second as the last `git add` has the
// stat data git recorded; only git's "racy" check (entry not older than the
// index file) finds it. The snapshot's copy of the index must keep that
// check working, or the snapshot silently holds the old content (without
// copyIndex keeping the index's mtime this fails whenever the copy lands in
// a later second than the add; TestCreateSnapshotsWithoutTouchingTheUser
// caught it that way).
func TestSnapshotSeesRacyEdits(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "r")
	f.git(t.TempDir(), "init", "-q", dir)
	for i, id := range []string{"01RACY0", "01RACY1", "01RACY2"} {
		write(t, filepath.Join(dir, "f.txt"), "aaa\n")
		f.git(dir, "add", "f.txt")
		f.git(dir, "commit", "-q", "--allow-empty", "-m", id)
		write(t, filepath.Join(dir, "f.txt"), "bbb\n")
		task, err := f.m.Create(ctx, dir, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(task.Path, "f.txt")); got != "bbb\n" {
			t.Errorf("round %d: the snapshot holds %q, not the edited file", i, got)
		}
		f.m.Finish(ctx, task, false)
	}
}

// A repository whose work tree holds tribunal's own directory (a dotfiles
// repository at $HOME holds $ONLOOKER_DIR): the snapshot leaves it out,
// and a run from a subdirectory still snapshots the whole tree.
func TestSnapshotExcludesOwnDirectory(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	home := filepath.Join(t.TempDir(), "home")
	f.git(t.TempDir(), "init", "-q", home)
	write(t, filepath.Join(home, "dotfile"), "x\n")
	write(t, filepath.Join(home, "sub", "y"), "y\n")
	f.m.Dir = filepath.Join(home, ".onlooker", "tribunal", "k", "worktrees")
	task, err := f.m.Create(ctx, home, "01HOME")
	if err != nil {
		t.Fatal(err)
	}
	files := f.git(task.Path, "ls-files")
	if files != "dotfile\nsub/y" {
		t.Errorf("snapshot holds %q", files)
	}
	if err := f.m.Finish(ctx, task, false); err != nil {
		t.Fatal(err)
	}
}

// When $ONLOOKER_DIR cannot hold a worktree (below a file here), the task
// goes to the private per-user fallback, and everything still finds it.
func TestFallbackDirectory(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	blocker := filepath.Join(t.TempDir(), "file")
	write(t, blocker, "")
	var warned []string
	f.m.Dir = filepath.Join(blocker, "onlooker", "worktrees")
	f.m.Fallback = FallbackDir(t.TempDir(), os.Getuid(), "key")
	f.m.Warn = func(s string) { warned = append(warned, s) }
	task, err := f.m.Create(ctx, repo, "01FALLBACK")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(task.Path, filepath.Dir(f.m.Fallback)) || len(warned) != 1 || !strings.Contains(warned[0], "not a directory") {
		t.Fatalf("path %s, warnings %q", task.Path, warned)
	}
	write(t, filepath.Join(task.Path, "x.txt"), "x\n")
	f.m.Commit(ctx, task, "it")
	if err := f.m.Finish(ctx, task, true); err != nil {
		t.Fatal(err)
	}
	if kept := f.m.KeptTasks(); len(kept) != 1 || kept[0].ID != "01FALLBACK" {
		t.Errorf("kept = %+v", kept)
	}
	loaded, err := f.m.Load("01FALLBACK")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := f.m.Apply(ctx, loaded); err != nil || !res.Applied {
		t.Fatalf("apply from the fallback: %+v %v", res, err)
	}
	if err := f.m.Discard(ctx, loaded); err != nil {
		t.Fatal(err)
	}
	if kept := f.m.KeptTasks(); len(kept) != 0 {
		t.Errorf("kept after discard = %+v", kept)
	}
}

// A fallback root that is not private to this user is neither used nor
// trusted: another user could have planted records there.
func TestFallbackMustBePrivate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	tmp := t.TempDir()
	fb := FallbackDir(tmp, os.Getuid(), "key")
	os.MkdirAll(fb, 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(fb)), 0o755)
	write(t, filepath.Join(fb, "01PLANTED.json"), `{"task_id":"01PLANTED","branch":"tribunal/01PLANTED","state":"kept","worktree":"/home"}`)
	blocker := filepath.Join(t.TempDir(), "file")
	write(t, blocker, "")
	f.m.Dir = filepath.Join(blocker, "worktrees")
	f.m.Fallback = fb
	if _, err := f.m.Load("01PLANTED"); err == nil {
		t.Error("a record in a shared fallback directory was trusted")
	}
	if kept := f.m.KeptTasks(); len(kept) != 0 {
		t.Errorf("kept = %+v", kept)
	}
	if _, err := f.m.Create(ctx, repo, "01NOTPRIVATE"); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("Create with a shared fallback: %v", err)
	}
}
