package gitstate

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// objectsRepo is a repository of several commits that each rewrite a few
// similar files (so that a repack stores them as delta chains), with a
// symlink, a nested directory and a file named where a directory is
// looked for. It returns the directory and the commits, oldest first.
func objectsRepo(t *testing.T, g *tgit) (string, []string) {
	t.Helper()
	dir := g.emptyRepo()
	var commits []string
	body := strings.Repeat("a line that every version of the file shares, to be deltified\n", 300)
	for i := 0; i < 6; i++ {
		testkit.WriteFiles(t, dir, map[string]string{
			".claude/settings.json":    fmt.Sprintf("{\"v\": %d}\n%s", i, body),
			".claude/tribunal.json":    body + fmt.Sprintf("version %d\n", i),
			".tribunal/dismissed":      fmt.Sprintf("%040d\n", i),
			"deep/er/still/file.txt":   strings.Repeat(fmt.Sprint(i), 100),
			"notadir":                  "a file\n",
			fmt.Sprintf("f%d.txt", i):  body,
			"big/blob.bin":             strings.Repeat("x", 3000+i),
			".claude/settings.local.j": "near miss\n",
		})
		for k := 0; k < 40; k++ { // trees big enough to be stored as deltas
			testkit.WriteFile(t, filepath.Join(dir, ".claude", fmt.Sprintf("same%02d", k)), "same\n")
			testkit.WriteFile(t, filepath.Join(dir, fmt.Sprintf("same%02d", k)), "same\n")
		}
		if i == 3 {
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, ".tribunal", "allowed_signers")); err != nil {
				t.Fatal(err)
			}
		}
		g.commitAll(dir, fmt.Sprint("v", i))
		commits = append(commits, g.head(dir))
	}
	return dir, commits
}

var lookedUp = []string{".claude/settings.json", ".claude/settings.local.json", ".claude/tribunal.json", ".claude/tribunal.toml",
	".tribunal/dismissed", ".tribunal/allowed_signers", "deep/er/still/file.txt", "notadir/x", "big/blob.bin", "missing"}

// checkAgainstGit compares LookPaths and ReadBlob with git ls-tree and
// cat-file for every commit, and says how many were read without git.
func checkAgainstGit(t *testing.T, g *tgit, dir string, commits []string) {
	t.Helper()
	for _, c := range commits {
		got, ok := LookPaths(filepath.Join(dir, ".git"), c, lookedUp)
		if !ok {
			t.Fatalf("%s: LookPaths could not read the commit without git", c[:8])
		}
		want := map[string]Entry{}
		out := g.Run(dir, append([]string{"ls-tree", "--full-tree", c, "--"}, lookedUp...)...)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			meta, name, _ := strings.Cut(line, "\t")
			f := strings.Fields(meta)
			want[name] = Entry{Mode: f[0], ID: f[2]}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: LookPaths\n%v\nwant (git ls-tree)\n%v", c[:8], got, want)
		}
		// A directory, alone (ls-tree lists it only when no other path
		// asked for lies below it).
		dirs, _ := LookPaths(filepath.Join(dir, ".git"), c, []string{"deep/er"})
		if id := strings.TrimSpace(g.Run(dir, "rev-parse", c+":deep/er")); dirs["deep/er"] != (Entry{"040000", id}) {
			t.Errorf("%s: LookPaths(deep/er) = %v, want tree %s", c[:8], dirs, id)
		}
		for name, e := range got {
			if e.Mode != "100644" {
				continue
			}
			data, tooLarge, ok := ReadBlob(filepath.Join(dir, ".git"), e.ID, 1<<20)
			if !ok || tooLarge {
				t.Fatalf("%s:%s: ReadBlob ok=%v tooLarge=%v", c[:8], name, ok, tooLarge)
			}
			if want := g.Run(dir, "cat-file", "blob", e.ID); string(data) != want {
				t.Errorf("%s:%s: ReadBlob read %d bytes, git %d", c[:8], name, len(data), len(want))
			}
			if _, tooLarge, ok := ReadBlob(filepath.Join(dir, ".git"), e.ID, int64(len(data)-1)); !ok || !tooLarge {
				t.Errorf("%s:%s: one byte over the max: ok=%v tooLarge=%v, want too large", c[:8], name, ok, tooLarge)
			}
		}
	}
}

// TestLookPathsAgreesWithGit: loose objects, then a pack whose trees and
// blobs are delta chains (ofs deltas, then ref deltas), read as git does.
func TestLookPathsAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	dir, commits := objectsRepo(t, g)
	checkAgainstGit(t, g, dir, commits) // loose
	g.Run(dir, "repack", "-adf", "--depth=50", "--window=50")
	deltas(t, g, dir)
	checkAgainstGit(t, g, dir, commits) // ofs deltas
	g.Run(dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adf", "--depth=50", "--window=50")
	deltas(t, g, dir)
	checkAgainstGit(t, g, dir, commits) // ref deltas
}

// deltas fails the test unless the pack holds trees and blobs stored as
// delta chains of two or more: else it would not test reading them.
func deltas(t *testing.T, g *tgit, dir string) {
	t.Helper()
	chained := map[string]bool{}
	vp := g.Run(dir, "verify-pack", "-v", packIdx(t, dir))
	for _, line := range strings.Split(vp, "\n") {
		// id type size size-in-pack offset depth base-id
		if f := strings.Fields(line); len(f) == 7 && f[5] >= "2" {
			chained[f[1]] = true
		}
	}
	if !chained["tree"] || !chained["blob"] {
		t.Fatalf("the repack made no delta chains of trees and blobs (%v); the test reads no deltas:\n%s", chained, vp)
	}
}

func packIdx(t *testing.T, dir string) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("want one pack, have %v", idx)
	}
	return idx[0]
}

// TestLookPathsAsksGitWhenItCannotRead: an object store it cannot read
// (objects elsewhere, through alternates; a corrupt object) is not taken
// for a commit without the files.
func TestLookPathsAsksGitWhenItCannotRead(t *testing.T) {
	g := newTGit(t)
	dir, commits := objectsRepo(t, g)
	clone := filepath.Join(t.TempDir(), "clone")
	g.Run(filepath.Dir(clone), "clone", "-q", "--shared", dir, clone)
	last := commits[len(commits)-1]
	if _, ok := LookPaths(filepath.Join(clone, ".git"), last, lookedUp); ok {
		t.Error("LookPaths read a commit whose objects are in an alternate store")
	}
	obj := filepath.Join(dir, ".git", "objects", last[:2], last[2:])
	if err := os.Chmod(obj, 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, obj, "not zlib")
	if _, ok := LookPaths(filepath.Join(dir, ".git"), last, lookedUp); ok {
		t.Error("LookPaths read a corrupt commit object")
	}
	if _, _, ok := ReadBlob(filepath.Join(dir, ".git"), strings.Repeat("ab", 20), 100); ok {
		t.Error("ReadBlob read a missing object")
	}
}

func TestApplyDeltaRefusesMalformed(t *testing.T) {
	base := []byte("0123456789")
	for _, tc := range []struct {
		name  string
		delta []byte
		want  string
		ok    bool
	}{
		{"copy and insert", []byte{10, 5, 0x91, 2, 3, 2, 'h', 'i'}, "234hi", true},
		{"wrong base size", []byte{9, 3, 0x90, 3}, "", false},
		{"copy past the base", []byte{10, 4, 0x91, 8, 4}, "", false},
		{"insert past the delta", []byte{10, 4, 5, 'a'}, "", false},
		{"short of the target", []byte{10, 6, 0x90, 3}, "", false},
		{"reserved opcode", []byte{10, 1, 0}, "", false},
	} {
		got, err := applyDelta(base, tc.delta)
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("%s: applyDelta = %q, %v; want %q ok=%v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}

// TestPackBudget: a chain that would inflate more than its budget is not
// read without git.
func TestPackBudget(t *testing.T) {
	g := newTGit(t)
	dir, commits := objectsRepo(t, g)
	g.Run(dir, "repack", "-adf", "--depth=50", "--window=50")
	common := filepath.Join(dir, ".git")
	e, ok := LookPaths(common, commits[0], []string{".claude/settings.json"})
	if !ok {
		t.Fatal("LookPaths could not read the repacked commit")
	}
	idx := packIdx(t, dir)
	want, _ := hex.DecodeString(e[".claude/settings.json"].ID)
	off, found, err := packOffset(idx, want)
	if err != nil || !found {
		t.Fatalf("the blob is not in the pack: %v", err)
	}
	for _, c := range []struct {
		budget int64
		ok     bool
	}{{maxChainRead, true}, {100, false}} {
		p := &pack{path: strings.TrimSuffix(idx, ".idx") + ".pack", idx: idx, budget: c.budget}
		_, _, err := p.resolve(off, 1<<20, 0)
		if (err == nil) != c.ok {
			t.Errorf("budget %d: err %v, want ok=%v", c.budget, err, c.ok)
		}
	}
}
