package worktree

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestCreateSnapshotsWithoutTouchingTheUser(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	// Witness hooks: none of the user's hooks may run from our git.
	witness := filepath.Join(t.TempDir(), "hook-ran")
	for _, h := range []string{"post-checkout", "post-index-change", "reference-transaction", "post-commit", "pre-commit"} {
		testkit.WriteFile(t, filepath.Join(repo, ".git", "hooks", h), "#!/bin/sh\necho "+h+" $PWD $(ps -o args= $PPID) >> "+witness+"\n")
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
	testkit.WriteFile(t, filepath.Join(task.Path, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n")
	testkit.WriteFile(t, filepath.Join(task.Path, "added.txt"), "by the actor\n")
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
	testkit.WriteFile(t, filepath.Join(repo, "a.txt"), "ONE\nTWO\nthree\nfour\nfive\nsix\nseven\n")
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
	testkit.WriteFile(t, filepath.Join(task.Path, "a.txt"), "actor\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	testkit.WriteFile(t, filepath.Join(task.Path, "other.txt"), "x\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(repo, "a.txt"), "user\ntwo\nthree\nfour\nfive\nsix\nseven\n")
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
	if f.git(repo, "rev-parse", "--verify", "refs/tribunal/tasks/01CONFLICT") != task.Head {
		t.Error("the kept ref does not point at the task's last commit")
	}
	// The user resolves by taking their edit back; apply now succeeds.
	testkit.WriteFile(t, filepath.Join(repo, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")
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
	if out := f.git(repo, "for-each-ref", "--format=%(refname)", "refs/tribunal"); out != "refs/tribunal/tasks/01KEPT\nrefs/tribunal/tasks/01LIVE" {
		t.Errorf("task refs after cleanup: %q", out)
	}
}

func TestParsers(t *testing.T) {
	z := strings.Repeat("0", 40)
	files, blobs := parseRaw(":100644 100755 " + z + " " + z + " M\x00a b.txt\x00" +
		":100644 100644 " + z + " " + z + " R087\x00old\x00new\x00" +
		":000000 100644 " + z + " " + z + " A\x00line\nbreak\x00" +
		":000000 120000 " + z + " abc A\x00rc\x00")
	want := []records.FileChange{{Path: "a b.txt", Status: "modified", OldMode: "100644", NewMode: "100755"},
		{Path: "new", OldPath: "old", Status: "renamed"}, {Path: "line\nbreak", Status: "added"}, {Path: "rc", Status: "added"}}
	if len(files) != len(want) {
		t.Fatalf("files = %+v", files)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("file %d = %+v, want %+v", i, files[i], want[i])
		}
	}
	if !reflect.DeepEqual(blobs, []string{"", "", "", "abc"}) {
		t.Errorf("link blobs = %q", blobs)
	}
	for _, c := range []struct {
		path, target string
		outside      bool
	}{{"rc", "/home/u/.bashrc", true}, {"a/rc", "../b", false}, {"a/rc", "../../b", true}, {"rc", "..", true}, {"rc", "b/../c", false}} {
		if got := outsideTree(c.path, c.target); got != c.outside {
			t.Errorf("outsideTree(%q, %q) = %v", c.path, c.target, got)
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
		testkit.WriteFile(t, filepath.Join(dir, "f.txt"), "aaa\n")
		f.git(dir, "add", "f.txt")
		f.git(dir, "commit", "-q", "--allow-empty", "-m", id)
		testkit.WriteFile(t, filepath.Join(dir, "f.txt"), "bbb\n")
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
	testkit.WriteFile(t, filepath.Join(home, "dotfile"), "x\n")
	testkit.WriteFile(t, filepath.Join(home, "sub", "y"), "y\n")
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

// A file over PatchFileBytes is named in the stored diff, not dumped into
// it; its line counts stay in the file list, and an accepted change still
// carries it whole to the user's tree.
func TestDiffNamesABigFile(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	task, err := f.m.Create(ctx, repo, "01BIGFILE")
	if err != nil {
		t.Fatal(err)
	}
	line := "generated data line\n"
	big := strings.Repeat(line, PatchFileBytes/len(line)+1)
	testkit.WriteFile(t, filepath.Join(task.Path, "dump.txt"), big)
	testkit.WriteFile(t, filepath.Join(task.Path, "small.txt"), "small\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	patch, files, err := f.m.Diff(ctx, task.Path, task.Snapshot, task.Head)
	if err != nil {
		t.Fatal(err)
	}
	if len(patch) > 4096 {
		t.Errorf("the stored diff holds %d bytes: the big file was dumped into it", len(patch))
	}
	if !strings.Contains(patch, "Binary files /dev/null and b/dump.txt differ") || !strings.Contains(patch, "+small") {
		t.Errorf("want the big file named and the small one shown:\n%s", patch)
	}
	var dump *records.FileChange
	for i := range files {
		if files[i].Path == "dump.txt" {
			dump = &files[i]
		}
	}
	if want := PatchFileBytes/len(line) + 1; dump == nil || dump.Added != want || dump.Binary {
		t.Errorf("file list entry for dump.txt = %+v, want %d added lines, not binary", dump, want)
	}
	res, err := f.m.Apply(ctx, task)
	if err != nil || !res.Applied {
		t.Fatalf("apply: %+v, %v", res, err)
	}
	if got := read(t, filepath.Join(repo, "dump.txt")); got != big {
		t.Errorf("the applied big file has %d bytes, want %d", len(got), len(big))
	}
	if err := f.m.Finish(ctx, task, false); err != nil {
		t.Fatal(err)
	}
}
