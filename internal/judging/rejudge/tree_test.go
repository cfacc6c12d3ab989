package rejudge

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestTreeExtractsTheIterationsCommit(t *testing.T) {
	r := testkit.GitRepo(t)
	repo := r.Dir
	r.WriteFile("sub/a.go", "package sub\n")
	commit := r.Commit("one")
	r.WriteFile("sub/a.go", "package changed\n")

	d := Deps{Env: env.Env{Git: projectkey.ExecGit("git", r.Env), TempDir: t.TempDir()}}
	dir, note, cleanup := tree(context.Background(), d, repo, commit)
	if note != "" {
		t.Fatalf("note = %q", note)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "sub", "a.go")); err != nil || string(data) != "package sub\n" {
		t.Fatalf("extracted %q, %v: want the commit's content, not the working tree's", data, err)
	}
	cleanup()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("tree not removed: %v", err)
	}

	for commit, want := range map[string]string{"": "is not recorded", "0123456789abcdef0123456789abcdef01234567": "is no longer in the repository"} {
		dir, note, cleanup := tree(context.Background(), d, repo, commit)
		if !strings.Contains(note, want) {
			t.Errorf("commit %q: note %q, want %q", commit, note, want)
		}
		if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
			t.Errorf("commit %q: directory %v, %v; want an empty one", commit, entries, err)
		}
		cleanup()
	}
}

func TestUntarStaysInside(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		tw.WriteHeader(&h)
		tw.Write([]byte(body))
	}
	add(tar.Header{Name: "ok/file.txt", Typeflag: tar.TypeReg}, "fine")
	add(tar.Header{Name: "../escape.txt", Typeflag: tar.TypeReg}, "no")
	add(tar.Header{Name: "/abs.txt", Typeflag: tar.TypeReg}, "no")
	add(tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}, "")
	tw.Close()
	root := t.TempDir()
	dir := filepath.Join(root, "tree")
	os.Mkdir(dir, 0o700)
	if err := untar(&buf, dir); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "ok", "file.txt")); string(data) != "fine" {
		t.Errorf("regular file = %q", data)
	}
	for _, p := range []string{filepath.Join(root, "escape.txt"), filepath.Join(dir, "link"), filepath.Join(dir, "abs.txt")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}
