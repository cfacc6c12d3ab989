package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// secretMark is in every secret-looking file of secretRepo; no object of
// the repository may ever contain it.
const secretMark = "sekrit-0f9e8d"

// secretRepo adds to f.repo untracked files that look like secrets by
// name (built-in and user pattern) and by content, and one that does not.
func (f *fixture) secretRepo() (string, []string) {
	repo := f.repo()
	leftOut := map[string]string{
		".env":                       "API_TOKEN=" + secretMark + "\n",
		"secrets/id_ed25519":         "-----BEGIN OPENSSH PRIVATE KEY-----\n" + secretMark + "\n",
		"deploy/material":            "-----BEGIN RSA PRIVATE KEY-----\n" + secretMark + "\n",
		"db.secret":                  secretMark + "\n",
		"odd name\nwith newline.pem": secretMark + "\n",
	}
	for p, c := range leftOut {
		testkit.WriteFile(f.t, filepath.Join(repo, filepath.FromSlash(p)), c)
	}
	testkit.WriteFile(f.t, filepath.Join(repo, ".env.example"), "API_TOKEN=changeme\n")
	var names []string
	for p := range leftOut {
		names = append(names, p)
	}
	slices.Sort(names)
	return repo, names
}

// objectsContain reports whether any object of the repository at dir
// holds s (loose or packed, reachable or not).
func (f *fixture) objectsContain(dir, s string) bool {
	f.t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir, cmd.Env = dir, f.env
	out, err := cmd.Output()
	if err != nil {
		f.t.Fatalf("cat-file: %v", err)
	}
	return strings.Contains(string(out), s)
}

// TestSnapshotLeavesOutSecrets: untracked files that look like secrets
// never enter the snapshot, the task worktree or the object store, neither
// when the task starts nor when its accepted change is applied (which
// snapshots the user's tree again); the task records which files it left
// out, and its ref is not a branch.
func TestSnapshotLeavesOutSecrets(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.m.Secrets, _ = secretfiles.New([]string{"*.secret"})
	repo, names := f.secretRepo()
	task, err := f.m.Create(ctx, repo, "01SECRETS")
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(task.LeftOut)
	slices.Sort(got)
	if !slices.Equal(got, names) {
		t.Errorf("LeftOut = %q, want %q", got, names)
	}
	for _, p := range names {
		if _, err := os.Lstat(filepath.Join(task.Path, filepath.FromSlash(p))); err == nil {
			t.Errorf("%q is in the task worktree", p)
		}
	}
	for _, p := range []string{"new.txt", ".env.example"} {
		if _, err := os.Stat(filepath.Join(task.Path, p)); err != nil {
			t.Errorf("untracked %s missing from the task worktree: %v", p, err)
		}
	}
	if f.objectsContain(repo, secretMark) {
		t.Fatal("a secret-looking file was hashed into the repository by the snapshot")
	}
	if rec, err := f.m.Load(task.ID); err != nil || len(rec.LeftOut) != len(names) {
		t.Errorf("the record does not name the left-out files: %+v, %v", rec, err)
	}

	testkit.WriteFile(t, filepath.Join(task.Path, "added.txt"), "by the actor\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	// The user edits a secret meanwhile; the accepted change lands beside it.
	testkit.WriteFile(t, filepath.Join(repo, ".env"), "API_TOKEN="+secretMark+"-rotated\n")
	res, err := f.m.Apply(ctx, task)
	if err != nil || !res.Applied {
		t.Fatalf("apply: %+v, %v", res, err)
	}
	if got := read(t, filepath.Join(repo, ".env")); got != "API_TOKEN="+secretMark+"-rotated\n" {
		t.Errorf("apply touched .env: %q", got)
	}
	if f.objectsContain(repo, secretMark) {
		t.Error("a secret-looking file was hashed into the repository by apply")
	}
	if err := f.m.Finish(ctx, task, false); err != nil {
		t.Fatal(err)
	}
	if out := f.git(repo, "for-each-ref", "refs/heads"); strings.Contains(out, "tribunal") {
		t.Errorf("a task ref is a branch: %s", out)
	}
	if left := leftBehind(t, f.m.Dir); len(left) != 0 {
		t.Errorf("left behind in %s: %v", f.m.Dir, left)
	}
}

// leftBehind lists what a manager's directory holds besides the
// repository's worktree lock file (pool/<digest>.worktrees.lock), which
// stays like every lock file: removing one another process may hold open
// would let two processes lock different files.
func leftBehind(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == poolName {
			locks, _ := filepath.Glob(filepath.Join(dir, poolName, "*.worktrees.lock"))
			if all, _ := os.ReadDir(filepath.Join(dir, poolName)); len(all) == len(locks) {
				continue
			}
		}
		left = append(left, e.Name())
	}
	return left
}

// TestKeptTaskRefIsNoBranch: a kept task's change is on
// refs/tribunal/tasks/<id>, which `git branch` does not list and `git push
// --all` does not publish.
func TestKeptTaskRefIsNoBranch(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	task, err := f.m.Create(ctx, repo, "01KEPTREF")
	if err != nil {
		t.Fatal(err)
	}
	if task.Branch != "refs/tribunal/tasks/01KEPTREF" {
		t.Errorf("Branch = %q", task.Branch)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, "added.txt"), "by the actor\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Finish(ctx, task, true); err != nil {
		t.Fatal(err)
	}
	if out := f.git(repo, "branch", "--list", "--all"); strings.Contains(out, "tribunal") {
		t.Errorf("git branch lists the task: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	f.git(repo, "init", "-q", "--bare", remote)
	f.git(repo, "push", "-q", "--all", remote)
	if out := f.git(remote, "for-each-ref"); strings.Contains(out, "tribunal") || !strings.Contains(out, "refs/heads/main") {
		t.Errorf("the remote after git push --all: %s", out)
	}
	if got := f.git(repo, "rev-parse", "refs/tribunal/tasks/01KEPTREF"); got != task.Head {
		t.Errorf("kept ref = %s, want %s", got, task.Head)
	}
}

// legacyKept makes a kept task as earlier tribunal versions left it: its change
// on branch tribunal/<id>, its record naming that branch.
func (f *fixture) legacyKept(repo, id string) *Task {
	f.t.Helper()
	ctx := context.Background()
	task, err := f.m.Create(ctx, repo, id)
	if err != nil {
		f.t.Fatal(err)
	}
	testkit.WriteFile(f.t, filepath.Join(task.Path, "added-"+id+".txt"), "by the actor\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		f.t.Fatal(err)
	}
	if err := f.m.Finish(ctx, task, true); err != nil {
		f.t.Fatal(err)
	}
	f.git(repo, "update-ref", "refs/heads/tribunal/"+id, task.Head)
	f.git(repo, "update-ref", "-d", "refs/tribunal/tasks/"+id)
	task.Branch = "tribunal/" + id
	if err := f.m.save(task); err != nil {
		f.t.Fatal(err)
	}
	return task
}

// TestMigrateLegacyBranches: kept tasks on branches of an older tribunal
// are found, moved out of refs/heads on first touch (with a sentence
// saying so) and still apply; a legacy record is discarded without
// migration too, and a branch checked out somewhere stays put.
func TestMigrateLegacyBranches(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	moved := f.legacyKept(repo, "01LEGACYA")
	dropped := f.legacyKept(repo, "01LEGACYB")
	busy := f.legacyKept(repo, "01LEGACYC")
	f.git(repo, "worktree", "add", "-q", filepath.Join(t.TempDir(), "busy"), "tribunal/01LEGACYC")

	if err := f.m.Discard(ctx, dropped); err != nil {
		t.Fatal(err)
	}
	notes := f.m.MigrateKept(ctx, repo)
	if len(notes) != 2 || !strings.Contains(notes[0], "moved kept task 01LEGACYA from branch tribunal/01LEGACYA to refs/tribunal/tasks/01LEGACYA") ||
		!strings.Contains(notes[1], "01LEGACYC stays on branch tribunal/01LEGACYC") {
		t.Errorf("notes = %q", notes)
	}
	if out := f.git(repo, "for-each-ref", "--format=%(refname)", "refs/heads", "refs/tribunal"); out != "refs/heads/main\nrefs/heads/tribunal/01LEGACYC\nrefs/tribunal/tasks/01LEGACYA" {
		t.Errorf("refs after migration: %q", out)
	}
	rec, err := f.m.Load(moved.ID)
	if err != nil || rec.Branch != "refs/tribunal/tasks/01LEGACYA" || rec.Legacy() {
		t.Fatalf("migrated record: %+v, %v", rec, err)
	}
	if again := f.m.MigrateKept(ctx, repo); len(again) != 1 {
		t.Errorf("second migration: %q", again)
	}
	res, err := f.m.Apply(ctx, rec)
	if err != nil || !res.Applied {
		t.Fatalf("apply of a migrated task: %+v, %v", res, err)
	}
	res, err = f.m.Apply(ctx, busy)
	if err != nil || !res.Applied {
		t.Fatalf("apply of a legacy task: %+v, %v", res, err)
	}
}

// TestDamagedRecordRefRefused: a record naming a ref tribunal did not give
// its task (a branch of the user's) is refused, so discard cannot delete it.
func TestDamagedRecordRefRefused(t *testing.T) {
	f := newFixture(t)
	testkit.WriteFile(t, filepath.Join(f.m.Dir, "01DAMAGED.json"), `{"task_id":"01DAMAGED","branch":"tribunal/../main","state":"kept"}`)
	if _, err := f.m.Load("01DAMAGED"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Load = %v, want a damaged record", err)
	}
}

// TestActorSecretNeverOverwritesTheUsers: the actor, not seeing the
// user's .env, writes one of its own; applying that change would overwrite
// the user's file, so nothing is applied and the user's .env stays.
func TestActorSecretNeverOverwritesTheUsers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.m.Secrets, _ = secretfiles.New([]string{"*.secret"})
	repo, _ := f.secretRepo()
	task, err := f.m.Create(ctx, repo, "01ACTORENV")
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, ".env"), "API_TOKEN=placeholder\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	res, err := f.m.Apply(ctx, task)
	if err != nil || res.Applied || len(res.Conflicts) == 0 {
		t.Fatalf("apply: %+v, %v; want a refusal", res, err)
	}
	if got := read(t, filepath.Join(repo, ".env")); got != "API_TOKEN="+secretMark+"\n" {
		t.Errorf("the user's .env = %q", got)
	}
	if f.objectsContain(repo, secretMark) {
		t.Error("a secret-looking file was hashed into the repository")
	}
}
