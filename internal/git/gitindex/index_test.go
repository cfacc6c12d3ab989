package gitindex

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadAgreesWithGit: every entry Read returns is git's, in git's
// order, with its mode, object id and size, and the cache-tree's root is
// the tree `git write-tree` writes.
func TestReadAgreesWithGit(t *testing.T) {
	r := newRepo(t)
	head := r.commit()
	r.write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.write("b/long-name-to-cross-the-eight-byte-padding.txt", "x\n")
	r.git("add", "-A")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",sub/mod")
	tree := r.git("write-tree") // fills the cache-tree

	idx, err := Read(r.index(), 100)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	var got []string
	for _, e := range idx.Entries {
		if e.Stage != 0 || e.AssumeValid {
			t.Errorf("%s: stage %d, assume-valid %v", e.Path, e.Stage, e.AssumeValid)
		}
		got = append(got, fmt.Sprintf("%06o %s %s", e.Mode, hex.EncodeToString(e.OID[:]), e.Path))
		if e.Mode&0o170000 == 0o100000 {
			fi, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(e.Path)))
			if err != nil || int64(e.Size) != fi.Size() || e.MtimeS != uint32(fi.ModTime().Unix()) {
				t.Errorf("%s: size %d, mtime %d; lstat %v, %v", e.Path, e.Size, e.MtimeS, fi, err)
			}
		}
	}
	if want := r.stageZero(false); !reflect.DeepEqual(got, want) {
		t.Errorf("entries\n got  %q\n want %q", got, want)
	}
	if idx.RootTree != tree {
		t.Errorf("RootTree = %q, want write-tree's %q", idx.RootTree, tree)
	}
	r.write("a.txt", "changed\n")
	r.git("add", "a.txt") // invalidates the cache-tree's root
	if idx, err := Read(r.index(), 100); err != nil || idx.RootTree != "" {
		t.Errorf("after add: RootTree %q, %v; want an invalidated root", idx.RootTree, err)
	}
}

// TestGitlinks: the stage-0 gitlinks, in index order, as
// `git ls-files --stage` lists them.
func TestGitlinks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(r *repo, head string)
		want  []string
	}{
		{"regular files only", func(*repo, string) {}, nil},
		{"one gitlink beside files", func(r *repo, head string) {
			r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",sub/mod")
		}, []string{"sub/mod"}},
		{"several, in index order", func(r *repo, head string) {
			r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",z/last")
			r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",a/first")
			r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",b/mid")
		}, []string{"a/first", "b/mid", "z/last"}},
		{"a conflicted gitlink is not listed", func(r *repo, head string) {
			r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",ok/mod")
			stdin := ""
			for stage := 1; stage <= 3; stage++ {
				stdin += fmt.Sprintf("160000 %s %d\tconflict/mod\n", head, stage)
			}
			r.updateIndexInfo(stdin)
		}, []string{"ok/mod"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			tt.setup(r, r.commit())
			idx, err := Read(r.index(), 100)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			got := idx.Gitlinks()
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Gitlinks() = %q, want %q", got, tt.want)
			}
			var fromGit []string
			for _, rec := range r.stageZero(true) {
				fromGit = append(fromGit, rec[strings.LastIndexByte(rec, ' ')+1:])
			}
			if !reflect.DeepEqual(got, fromGit) {
				t.Errorf("Gitlinks() = %q, git ls-files --stage lists %q", got, fromGit)
			}
			if only, err := ReadGitlinks(r.index(), 100); err != nil || !reflect.DeepEqual(only, got) {
				t.Errorf("ReadGitlinks = %q, %v; Read's Gitlinks() = %q", only, err, got)
			}
		})
	}
}

// TestReadRefuses: what Read does not read exactly is ErrUnsupported,
// never a partial index — its callers then ask git.
func TestReadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		max   int
		setup func(r *repo)
	}{
		{"skip-worktree (extended flags)", 100, func(r *repo) { r.git("update-index", "--skip-worktree", "a.txt") }},
		{"intent-to-add (extended flags)", 100, func(r *repo) { r.write("n.txt", "n\n"); r.git("add", "-N", "n.txt") }},
		{"version 4", 100, func(r *repo) { r.git("update-index", "--index-version", "4") }},
		{"version 4 in the header of a version 2 index", 100, func(r *repo) {
			r.rewrite(func(b []byte) []byte { b[7] = 4; return b })
		}},
		{"version 1", 100, func(r *repo) { r.rewrite(func(b []byte) []byte { b[7] = 1; return b }) }},
		{"split index (mandatory link extension)", 100, func(r *repo) { r.git("update-index", "--split-index") }},
		{"mandatory extension", 100, func(r *repo) {
			r.rewrite(func(b []byte) []byte { return append(b, "sdir\x00\x00\x00\x00"...) })
		}},
		{"more entries than maxEntries", 1, func(*repo) {}},
		{"negative maxEntries", -1, func(*repo) {}},
		{"checksum mismatch", 100, func(r *repo) {
			data, _ := os.ReadFile(r.index())
			data[20] ^= 1
			os.WriteFile(r.index(), data, 0o644)
		}},
		{"truncated entry", 100, func(r *repo) { r.rewrite(func(b []byte) []byte { return b[:headerLen+30] }) }},
		{"count beyond the entries", 100, func(r *repo) {
			r.rewrite(func(b []byte) []byte { return setCount(b[:headerLen+2*72], 3) })
		}},
		{"count the data cannot hold, below maxEntries", 10_000_000, func(r *repo) {
			r.rewrite(func(b []byte) []byte { return setCount(b, 9_000_000) })
		}},
		{"truncated extension", 100, func(r *repo) {
			r.rewrite(func(b []byte) []byte { return append(b, "ZZZZ\x00\x00\x01\x00ab"...) })
		}},
		{"no signature", 100, func(r *repo) { r.rewrite(func(b []byte) []byte { copy(b, "CRID"); return b }) }},
		{"shorter than a header", 100, func(r *repo) { os.WriteFile(r.index(), []byte("DIRC"), 0o644) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit()
			tt.setup(r)
			idx, err := Read(r.index(), tt.max)
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("Read = %+v, %v; want ErrUnsupported", idx, err)
			}
			if links, err := ReadGitlinks(r.index(), tt.max); !errors.Is(err, ErrUnsupported) {
				t.Errorf("ReadGitlinks = %q, %v; want ErrUnsupported", links, err)
			}
		})
	}
}

// TestReadKeepsOptionalExtensions: an extension git lets a reader skip
// (upper-case signature) is skipped, and the cache-tree is still found.
func TestReadKeepsOptionalExtensions(t *testing.T) {
	r := newRepo(t)
	r.commit()
	tree := r.git("write-tree")
	r.rewrite(func(b []byte) []byte { return append(b, "ZZZZ\x00\x00\x00\x02ab"...) })
	idx, err := Read(r.index(), 100)
	if err != nil || len(idx.Entries) != 2 || idx.RootTree != tree {
		t.Fatalf("Read = %+v, %v; want 2 entries and root %s", idx, err, tree)
	}
}

// TestReadRefusesNonRegularFiles: a directory (or a FIFO, which must not
// be waited on) is an error, not an index.
func TestReadRefusesNonRegularFiles(t *testing.T) {
	if _, err := Read(t.TempDir(), 100); err == nil {
		t.Error("Read(directory) succeeded")
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) = %v, want a wrapped ErrNotExist", err)
	}
}
