package gitstate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestFingerprintChanges checks each change that must move the fingerprint:
// the baseline is taken, the mutation applied, and the two must differ, while
// a second baseline read must equal the first.
func TestFingerprintChanges(t *testing.T) {
	tests := []struct {
		name   string
		before func(t *testing.T, g *tgit, dir string) // state the baseline sees
		mutate func(t *testing.T, g *tgit, dir string)
	}{
		{"untracked file appears", nil, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "x\n")
		}},
		{"untracked file content changes", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "v1\n")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "v2\n")
		}},
		{"untracked file renamed", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "same\n")
		}, func(t *testing.T, g *tgit, dir string) {
			if err := os.Rename(filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")); err != nil {
				t.Fatal(err)
			}
		}},
		{"untracked file made executable", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\n")
		}, func(t *testing.T, g *tgit, dir string) {
			if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"untracked symlink retargeted", func(t *testing.T, g *tgit, dir string) {
			symlink(t, "tracked.txt", filepath.Join(dir, "link"))
		}, func(t *testing.T, g *tgit, dir string) {
			if err := os.Remove(filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			symlink(t, "other.txt", filepath.Join(dir, "link"))
		}},
		{"unstaged edit", nil, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
		}},
		{"unstaged edit changes again", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edit 1\n")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edit 2\n")
		}},
		{"staged content changes", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged 1\n")
			g.Run(dir, "add", "tracked.txt")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged 2\n")
			g.Run(dir, "add", "tracked.txt")
		}},
		{"tracked mode change", nil, func(t *testing.T, g *tgit, dir string) {
			if err := os.Chmod(filepath.Join(dir, "tracked.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"tracked binary file changes", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "blob.bin"), "\x00\x01\x02")
			g.commitAll(dir, "bin")
			testkit.WriteFile(t, filepath.Join(dir, "blob.bin"), "\x00\x01\x03")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "blob.bin"), "\x00\x01\x04")
		}},
		// The index is part of the tree state (ADR-009): staging an edit
		// is a change even though the work tree's bytes are the same.
		{"edit staged, work tree unchanged", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
		}, func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "add", "tracked.txt")
		}},
		{"staged edit unstaged again", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
			g.Run(dir, "add", "tracked.txt")
		}, func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "reset", "-q", "--", "tracked.txt")
		}},
		{"staged file edited further in the work tree", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged\n")
			g.Run(dir, "add", "tracked.txt")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "staged then edited\n")
		}},
		{"tracked file deleted", nil, func(t *testing.T, g *tgit, dir string) {
			if err := os.Remove(filepath.Join(dir, "other.txt")); err != nil {
				t.Fatal(err)
			}
		}},
		{"deletion staged", func(t *testing.T, g *tgit, dir string) {
			if err := os.Remove(filepath.Join(dir, "other.txt")); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "rm", "-q", "--cached", "other.txt")
		}},
		{"untracked file added to the index", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "x\n")
		}, func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "add", "new.txt")
		}},
		{"HEAD moves with the same tree", nil, func(t *testing.T, g *tgit, dir string) {
			g.Run(dir, "commit", "-q", "--allow-empty", "-m", "empty")
		}},
		{"dirty tree committed", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
		}, func(t *testing.T, g *tgit, dir string) {
			g.commitAll(dir, "commit the edit")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTGit(t)
			dir := g.repo()
			if tt.before != nil {
				tt.before(t, g, dir)
			}
			base := fingerprint(t, g, dir)
			if again := fingerprint(t, g, dir); again != base {
				t.Fatalf("fingerprint unstable on an unchanged tree: %s then %s", base, again)
			}
			tt.mutate(t, g, dir)
			if after := fingerprint(t, g, dir); after == base {
				t.Errorf("fingerprint did not change: %s", base)
			}
		})
	}
}

func TestFingerprintExtraBlobs(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
	fp := func(extra ...[]byte) string { return fingerprint(t, g, dir, extra...) }

	if a, b := fp([]byte("msg 1")), fp([]byte("msg 1")); a != b {
		t.Error("same extra blob, different fingerprints")
	}
	distinct := map[string][][]byte{
		"none":             nil,
		"one empty blob":   {{}},
		"msg 1":            {[]byte("msg 1")},
		"msg 2":            {[]byte("msg 2")},
		"split ab as a|b":  {[]byte("a"), []byte("b")},
		"joined ab":        {[]byte("ab")},
		"two empty blobs":  {{}, {}},
		"order swapped ba": {[]byte("b"), []byte("a")},
	}
	seen := map[string]string{}
	for name, extra := range distinct {
		got := fp(extra...)
		if other, dup := seen[got]; dup {
			t.Errorf("extra %q and %q collide: %s", name, other, got)
		}
		seen[got] = name
	}
}

func TestFingerprintStableCases(t *testing.T) {
	tests := []struct {
		name   string
		before func(t *testing.T, g *tgit, dir string)
		mutate func(t *testing.T, g *tgit, dir string)
	}{
		{"ignored file added", nil, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/x/index.js"), "x\n")
		}},
		{"ignored file edited", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "app.log"), "1\n")
		}, func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "app.log"), "2\n")
		}},
		{"symlink target content changes (link not followed)", func(t *testing.T, g *tgit, dir string) {
			outside := filepath.Join(t.TempDir(), "target")
			testkit.WriteFile(t, filepath.Join(filepath.Dir(outside), "target"), "v1\n")
			symlink(t, outside, filepath.Join(dir, "link"))
		}, func(t *testing.T, g *tgit, dir string) {
			link, err := os.Readlink(filepath.Join(dir, "link"))
			if err != nil {
				t.Fatal(err)
			}
			testkit.WriteFile(t, filepath.Join(filepath.Dir(link), "target"), "v2\n")
		}},
		{"tracked file touched, content unchanged", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
		}, func(t *testing.T, g *tgit, dir string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(dir, "tracked.txt"), later, later); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTGit(t)
			dir := g.repo()
			if tt.before != nil {
				tt.before(t, g, dir)
			}
			base := fingerprint(t, g, dir)
			tt.mutate(t, g, dir)
			if after := fingerprint(t, g, dir); after != base {
				t.Errorf("fingerprint changed: %s -> %s", base, after)
			}
		})
	}
}

func TestFingerprintUnbornRepository(t *testing.T) {
	g := newTGit(t)
	dir := g.emptyRepo()
	empty := fingerprint(t, g, dir)
	testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "v1\n")
	untracked := fingerprint(t, g, dir)
	g.Run(dir, "add", "a.txt")
	staged := fingerprint(t, g, dir)
	testkit.WriteFile(t, filepath.Join(dir, "a.txt"), "v2\n")
	stagedPlusEdit := fingerprint(t, g, dir)
	g.Run(dir, "add", "a.txt")
	restaged := fingerprint(t, g, dir)

	all := []string{empty, untracked, staged, stagedPlusEdit, restaged}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[i] == all[j] {
				t.Errorf("unborn fingerprints %d and %d collide: %s", i, j, all[i])
			}
		}
	}
	if again := fingerprint(t, g, dir); again != restaged {
		t.Errorf("unborn fingerprint unstable: %s then %s", restaged, again)
	}
}

func TestFingerprintFileNamedHEAD(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	testkit.WriteFile(t, filepath.Join(dir, "HEAD"), "a file called HEAD\n")
	g.commitAll(dir, "head file")
	testkit.WriteFile(t, filepath.Join(dir, "HEAD"), "edited\n")
	a := fingerprint(t, g, dir)
	testkit.WriteFile(t, filepath.Join(dir, "HEAD"), "edited again\n")
	if b := fingerprint(t, g, dir); a == b {
		t.Error("edit to a file named HEAD did not change the fingerprint")
	}
}

// TestFingerprintFraming restates the documented encoding independently and
// checks the implementation against it, with a runner that fails on any
// call: without a submodule, the fingerprint needs no git at all.
func TestFingerprintFraming(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "new file.txt"), "hello\n")
	testkit.WriteFile(t, filepath.Join(dir, "mod.txt"), "now\n")
	if err := os.WriteFile(filepath.Join(dir, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "new file.txt", filepath.Join(dir, "ln"))

	runner := func(_ context.Context, _ string, args ...string) ([]byte, error) {
		return nil, errors.New("unexpected git call " + strings.Join(args, " "))
	}
	det := "N... 100644 100644 100644 " + oid + " " + oid
	st := State{
		Head: oid,
		Changed: []Change{
			{XY: ".M", Path: "mod.txt", Detail: det},
			{XY: "D.", Path: "del.txt", Detail: det},
		},
		Untracked: []string{"tool", "new file.txt", "gone.txt", "ln"},
	}
	got, err := Fingerprint(context.Background(), runner, dir, st, []byte("extra blob"))
	if err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		buf.Write(n[:])
		buf.WriteString(s)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	field("tribunal-fp-v2")
	field(oid)
	field("changed")
	field("2")
	field("D.")
	field(det)
	field("")
	field("del.txt")
	field("gone")
	field(".M")
	field(det)
	field("")
	field("mod.txt")
	field("file:--" + sum("now\n"))
	field("submodules")
	field("")
	field("untracked")
	field("4")
	field("gone.txt")
	field("gone")
	field("ln")
	field("symlink:new file.txt")
	field("new file.txt")
	field("file:--" + sum("hello\n"))
	field("tool")
	field("file:x-" + sum("#!/bin/sh\n"))
	field("extra")
	field("1")
	field("extra blob")
	want := sum(buf.String())
	if got != want {
		t.Errorf("Fingerprint = %s, documented framing gives %s", got, want)
	}
}

func TestFingerprintAsksGitOnlyAboutSubmodules(t *testing.T) {
	var calls []string
	runner := func(_ context.Context, _ string, args ...string) ([]byte, error) {
		calls = append(calls, strings.Join(args, " "))
		return []byte("Subproject commit " + oid + "\n"), nil
	}
	st := State{Head: oid, Changed: []Change{
		{XY: ".M", Path: "a.txt", Detail: "N... 100644 100644 100644 " + oid + " " + oid},
		{XY: ".M", Path: "lib", Detail: "SC.. 160000 160000 160000 " + oid + " " + oid},
	}}
	if _, err := Fingerprint(context.Background(), runner, t.TempDir(), st); err != nil {
		t.Fatal(err)
	}
	want := []string{"diff-files -p --no-ext-diff --no-textconv --no-color -- lib"}
	if !slices.Equal(calls, want) {
		t.Errorf("git calls = %q, want %q", calls, want)
	}
}

func TestFingerprintRunnerError(t *testing.T) {
	boom := errors.New("boom")
	runner := func(context.Context, string, ...string) ([]byte, error) { return nil, boom }
	st := State{Head: oid, Changed: []Change{{XY: ".M", Path: "lib", Detail: "S.M. 160000 160000 160000 " + oid + " " + oid}}}
	if _, err := Fingerprint(context.Background(), runner, t.TempDir(), st); !errors.Is(err, boom) {
		t.Errorf("error = %v, want it to wrap the runner's", err)
	}
}

func TestUntrackedDigest(t *testing.T) {
	dir := t.TempDir()
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	testkit.WriteFile(t, filepath.Join(dir, "plain"), "content\n")
	testkit.WriteFile(t, filepath.Join(dir, "empty"), "")
	if err := os.MkdirAll(filepath.Join(dir, "nested"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "does/not/exist", filepath.Join(dir, "dangling"))

	tests := []struct {
		name, path, want string
	}{
		{"regular file", "plain", "file:--" + sum("content\n")},
		{"empty file differs from missing", "empty", "file:--" + sum("")},
		{"missing", "missing", "gone"},
		{"lstat fails (parent is a file)", "plain/child", "unreadable"},
		{"nested repository listed with slash", "nested/", "dir"},
		{"nested repository dir", "nested", "dir"},
		{"dangling symlink is its target", "dangling", "symlink:does/not/exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pathDigest(filepath.Join(dir, tt.path)); got != tt.want {
				t.Errorf("pathDigest(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestUntrackedDigestFifoDoesNotBlock(t *testing.T) {
	mkfifo, err := exec.LookPath("mkfifo")
	if err != nil {
		t.Skip("mkfifo not available")
	}
	p := filepath.Join(t.TempDir(), "pipe")
	if out, err := exec.Command(mkfifo, p).CombinedOutput(); err != nil {
		t.Fatalf("mkfifo: %v %s", err, out)
	}
	done := make(chan string, 1)
	go func() { done <- pathDigest(p) }()
	select {
	case got := <-done:
		if !strings.HasPrefix(got, "special:") {
			t.Errorf("fifo digest = %q, want a special: marker", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("hashing a fifo blocked")
	}
}

func TestUntrackedDigestUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads mode-000 files")
	}
	p := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	if got := pathDigest(p); got != "unreadable" {
		t.Errorf("digest = %q, want unreadable", got)
	}
}

func TestUntrackedDigestLargeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	data := bytes.Repeat([]byte("0123456789abcdef"), (untrackedHashCap+4096)/16)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1_700_000_000, 0)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	first := pathDigest(p)
	prefix := sha256.Sum256(data[:untrackedHashCap])
	if !strings.HasSuffix(first, ":"+hex.EncodeToString(prefix[:])) || !strings.Contains(first, ":1700000000000000000:") {
		t.Errorf("large-file digest %q does not hash the capped prefix with size and mtime", first)
	}

	// A change past the cap is caught through the modification time.
	data[len(data)-1] ^= 1
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if second := pathDigest(p); second == first {
		t.Error("change beyond the hash cap went unnoticed")
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}
