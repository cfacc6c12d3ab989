package worktree

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// An actor that rewrites the shared .git: a filter in config, a modified
// and an added hook, info/attributes. Commit puts everything back before
// its git add, so the planted filter never runs, and says what it found.
func TestGuardRestoresTheRepositorysGitFiles(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	hooks := filepath.Join(repo, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	testkit.WriteFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\nexit 0\n")
	os.Chmod(filepath.Join(hooks, "pre-commit"), 0o755)
	configBefore := read(t, filepath.Join(repo, ".git", "config"))
	task, err := f.m.Create(ctx, repo, "01GUARD")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "filter-ran")
	f.git(task.Path, "config", "filter.evil.clean", "touch "+marker+"; cat")
	testkit.WriteFile(t, filepath.Join(task.Path, ".gitattributes"), "* filter=evil\n")
	testkit.WriteFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\ntouch "+marker+"\n")
	testkit.WriteFile(t, filepath.Join(hooks, "post-checkout"), "#!/bin/sh\ntouch "+marker+"\n")
	testkit.WriteFile(t, filepath.Join(repo, ".git", "info", "attributes"), "* filter=evil\n")
	testkit.WriteFile(t, filepath.Join(task.Path, "a.txt"), "changed\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted filter ran")
	}
	if got := read(t, filepath.Join(repo, ".git", "config")); got != configBefore {
		t.Errorf("config not restored:\n%s", got)
	}
	if got := read(t, filepath.Join(hooks, "pre-commit")); got != "#!/bin/sh\nexit 0\n" {
		t.Errorf("pre-commit not restored: %q", got)
	}
	for _, gone := range []string{filepath.Join(hooks, "post-checkout"), filepath.Join(repo, ".git", "info", "attributes")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	want := []records.Tamper{
		{Path: ".git/config", Change: "changed", Detail: "filter.evil.clean added", Restored: true},
		{Path: ".git/hooks/post-checkout", Change: "added", Restored: true},
		{Path: ".git/hooks/pre-commit", Change: "changed", Restored: true},
		{Path: ".git/info/attributes", Change: "added", Restored: true},
	}
	if !reflect.DeepEqual(task.Tampered, want) {
		t.Errorf("tampered = %+v\nwant %+v", task.Tampered, want)
	}
	if line := TamperLine(task.Tampered); !strings.HasPrefix(line, "the task changed your repository's git configuration: .git/config (changed: filter.evil.clean added), .git/hooks/post-checkout (added)") ||
		!strings.HasSuffix(line, "— restored to how they were when the task started") {
		t.Errorf("TamperLine = %q", line)
	}
	if again := f.m.Guard(ctx, task); len(again) != 0 {
		t.Errorf("a second check found %+v", again)
	}
}

// What cannot be put back is said, and tribunal's own git still runs no
// filter the task added: the filter config is pinned to the start.
func TestGuardPinsFiltersItCannotRestore(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	task, err := f.m.Create(ctx, repo, "01PIN")
	if err != nil {
		t.Fatal(err)
	}
	// A filter in the user's global configuration (outside the
	// repository: nothing to put back) and a hooks entry that is a
	// directory.
	marker := filepath.Join(t.TempDir(), "filter-ran")
	home := ""
	for _, kv := range f.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	testkit.WriteFile(t, filepath.Join(home, ".gitconfig"), "[filter \"evil\"]\n\tclean = ps -o args= -p $PPID >> "+marker+"; cat\n\trequired = true\n")
	testkit.WriteFile(t, filepath.Join(task.Path, ".gitattributes"), "* filter=evil\n")
	os.MkdirAll(filepath.Join(repo, ".git", "hooks", "post-merge"), 0o755)
	testkit.WriteFile(t, filepath.Join(task.Path, "a.txt"), "changed\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a filter added during the task ran: %s", read(t, marker))
	}
	want := []string{"-c", "filter.evil.clean=", "-c", "filter.evil.required=false"}
	if !reflect.DeepEqual(task.pins, want) {
		t.Errorf("pins = %q, want %q", task.pins, want)
	}
	if len(task.Tampered) != 1 || task.Tampered[0].Path != ".git/hooks/post-merge" || task.Tampered[0].Restored || task.Tampered[0].NotRestored != "it is now a directory" {
		t.Errorf("tampered = %+v", task.Tampered)
	}
	if line := TamperLine(task.Tampered); !strings.Contains(line, "— not restored: .git/hooks/post-merge: it is now a directory") {
		t.Errorf("TamperLine = %q", line)
	}
}

func TestPinArgs(t *testing.T) {
	start := map[string]string{"filter.lfs.clean": "git-lfs clean -- %f", "merge.ours.driver": "true"}
	cur := map[string]string{"filter.lfs.clean": "evil", "merge.ours.driver": "true", "merge.x.driver": "evil %A",
		"filter.x.process": "evil", "filter.x.smudge": "evil"}
	got := pinArgs(start, cur)
	want := []string{"-c", "filter.lfs.clean=git-lfs clean -- %f", "-c", "filter.x.process=", "-c", "filter.x.smudge=", "-c", "merge.x.driver=false"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pinArgs = %q\nwant %q", got, want)
	}
	for k, v := range map[string]string{"filter.a.b.clean": "=", "filter.x": "", "core.hookspath": "", "merge.x.name": "", "diff.x.textconv": ""} {
		if pinnedKey(k) != v {
			t.Errorf("pinnedKey(%q) = %q, want %q", k, pinnedKey(k), v)
		}
	}
}

// A .GIT path, a pipe for a tracked file and files over the limits are
// refused by size and type alone, taken out of the worktree, and left out
// of the commit; the rest is recorded.
func TestCommitRefusesWhatGitMustNotRead(t *testing.T) {
	f := newFixture(t)
	f.m.Limits = Limits{FileBytes: 1000, TaskBytes: 1500}
	ctx := context.Background()
	repo := f.repo()
	task, err := f.m.Create(ctx, repo, "01REFUSE")
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, "sub", ".GIT", "config"), "x\n")
	os.Remove(filepath.Join(task.Path, "b.txt"))
	if err := syscall.Mkfifo(filepath.Join(task.Path, "b.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, "big"), strings.Repeat("x", 1001))
	testkit.WriteFile(t, filepath.Join(task.Path, "m1"), strings.Repeat("x", 900))
	testkit.WriteFile(t, filepath.Join(task.Path, "m2"), strings.Repeat("x", 800))
	testkit.WriteFile(t, filepath.Join(task.Path, "ignored", "huge"), strings.Repeat("x", 5000))
	testkit.WriteFile(t, filepath.Join(task.Path, "ok.txt"), "ok\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range task.Refused {
		got = append(got, RefusalLine(r))
	}
	want := []string{
		"b.txt: a named pipe: git records only files, links and directories",
		"big: 1001 bytes, over the per-file limit of 1000 bytes (session.max_file_mb)",
		"m1: 900 bytes of a change of 1703 bytes, over the per-task limit of 1500 bytes (session.max_change_mb)",
		"sub/.GIT/config: a path through .GIT, a name git reserves for the repository itself",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refused:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	tree := f.git(task.Path, "ls-tree", "-r", "--name-only", task.Head)
	for _, p := range []string{"m2", "ok.txt", "b.txt"} {
		if !strings.Contains("\n"+tree+"\n", "\n"+p+"\n") {
			t.Errorf("%s missing from the commit:\n%s", p, tree)
		}
	}
	for _, p := range []string{"big", "m1", ".GIT", "huge"} {
		if strings.Contains(tree, p) {
			t.Errorf("%s recorded:\n%s", p, tree)
		}
	}
	if got := read(t, filepath.Join(task.Path, "b.txt")); got != "b staged\n" {
		t.Errorf("b.txt in the worktree = %q, want the recorded content back", got)
	}
	for _, p := range []string{"big", "m1", "sub/.GIT"} {
		if _, err := os.Lstat(filepath.Join(task.Path, p)); err == nil {
			t.Errorf("%s is still in the task worktree", p)
		}
	}
}

// Binary files are applied from their blobs, not through a patch, beside
// text changes; a binary the user changed after the merge is a conflict.
func TestApplyWritesBinaryFilesFromBlobs(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	repo := f.repo()
	bin := func(b byte, n int) string { return string(bytes.Repeat([]byte{0, b}, n)) }
	testkit.WriteFile(t, filepath.Join(repo, "old.bin"), bin(1, 100))
	testkit.WriteFile(t, filepath.Join(repo, "gone.bin"), bin(2, 100))
	task, err := f.m.Create(ctx, repo, "01BINARY")
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(task.Path, "old.bin"), bin(3, 100))
	testkit.WriteFile(t, filepath.Join(task.Path, "dir", "new.bin"), bin(4, 3<<20))
	os.Chmod(filepath.Join(task.Path, "dir", "new.bin"), 0o755)
	os.Remove(filepath.Join(task.Path, "gone.bin"))
	testkit.WriteFile(t, filepath.Join(task.Path, "added.txt"), "text\n")
	if _, err := f.m.Commit(ctx, task, "iteration 0"); err != nil {
		t.Fatal(err)
	}
	res, err := f.m.Apply(ctx, task)
	if err != nil || !res.Applied {
		t.Fatalf("apply: %+v, %v", res, err)
	}
	if read(t, filepath.Join(repo, "old.bin")) != bin(3, 100) || read(t, filepath.Join(repo, "dir", "new.bin")) != bin(4, 3<<20) || read(t, filepath.Join(repo, "added.txt")) != "text\n" {
		t.Error("the change did not land whole")
	}
	if st, err := os.Stat(filepath.Join(repo, "dir", "new.bin")); err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("new.bin lost its executable bit: %v", st.Mode())
	}
	if _, err := os.Lstat(filepath.Join(repo, "gone.bin")); err == nil {
		t.Error("gone.bin is still there")
	}
	b := blobFile{path: "old.bin", old: strings.TrimSpace(f.git(repo, "hash-object", "old.bin")), new: zeroID}
	if reason := f.m.preimage(ctx, task, b); reason != "" {
		t.Errorf("preimage of an unchanged file: %q", reason)
	}
	testkit.WriteFile(t, filepath.Join(repo, "old.bin"), bin(5, 100))
	if reason := f.m.preimage(ctx, task, b); reason != "changed in your working tree since the merge" {
		t.Errorf("preimage of a changed file: %q", reason)
	}
	if reason := f.m.preimage(ctx, task, blobFile{path: "old.bin", old: zeroID}); reason != "exists in your working tree now" {
		t.Errorf("preimage of a file the task adds: %q", reason)
	}
}
