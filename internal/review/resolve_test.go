package review

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestResolveRangeAgreesWithGit holds the range's merge base (read from
// rev-parse's base...head) and its tree (read from the object store) to
// git merge-base and git rev-parse, with the objects loose and packed,
// and where two merge bases compete (a criss-cross merge).
func TestResolveRangeAgreesWithGit(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	ctx := context.Background()
	// Criss-cross: x and y each merge the other's first commit.
	r.Git("checkout", "-q", "-b", "x", "main")
	r.WriteFile("x.txt", "x\n")
	r.Git("add", ".")
	r.Git("commit", "-q", "-m", "x1")
	x1 := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "-b", "y", "main")
	r.WriteFile("y.txt", "y\n")
	r.Git("add", ".")
	r.Git("commit", "-q", "-m", "y1")
	r.Git("merge", "-q", "--no-edit", x1)
	r.Git("checkout", "-q", "x")
	r.Git("merge", "-q", "--no-edit", "y~1")
	if all := strings.Fields(r.Git("merge-base", "--all", "x", "y")); len(all) != 2 {
		t.Fatalf("the criss-cross has %d merge bases, want 2", len(all))
	}
	pairs := [][2]string{{"main", "feature"}, {"feature", "main"}, {"x", "y"}, {"y", "x"}, {"main", "y"}}
	for _, packed := range []bool{false, true} {
		if packed {
			r.Git("gc", "-q")
		}
		for _, p := range pairs {
			c, err := Resolve(ctx, git, dir, Input{Base: p[0], Head: p[1]})
			if err != nil {
				if _, nothing := err.(*NothingError); !nothing {
					t.Fatalf("%s...%s: %v", p[0], p[1], err)
				}
				continue
			}
			mb := r.Git("merge-base", p[0], p[1])
			if c.Base != mb {
				t.Errorf("%s...%s (packed %v): base %s, git merge-base says %s", p[0], p[1], packed, c.Base, mb)
			}
			if tree := r.Git("rev-parse", mb+"^{tree}"); c.BaseTree != tree {
				t.Errorf("%s...%s (packed %v): base tree %s, git says %s", p[0], p[1], packed, c.BaseTree, tree)
			}
		}
	}
}

func TestSymmetricBase(t *testing.T) {
	cases := []struct {
		lines     []string
		mb        string
		wantKnown bool
	}{
		{[]string{"h", "b", "^m"}, "m", true},
		{[]string{"h", "b", "^m", "^n"}, "m", true},
		{[]string{"h", "b"}, "", true},        // no common history
		{[]string{"b", "h", "^m"}, "", false}, // not the expected order: ask git
		{[]string{"h", "b", "m"}, "", false},  // no caret
		{[]string{"h"}, "", false},
	}
	for _, c := range cases {
		mb, known := symmetricBase(c.lines, "b", "h")
		if mb != c.mb || known != c.wantKnown {
			t.Errorf("symmetricBase(%q) = %q, %v; want %q, %v", c.lines, mb, known, c.mb, c.wantKnown)
		}
	}
}

// TestIdentifyReadsNoPatch: Identify names a range's commits and trees —
// its cache key — without diffing (a cached verdict costs no diff); Load
// then reads the patch once and gives the change Resolve gives. A range
// whose trees are the same is nothing to review before any diff.
func TestIdentifyReadsNoPatch(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	ctx := context.Background()
	var diffs int
	counting := func(ctx context.Context, d string, args ...string) ([]byte, error) {
		// A patch, not Load's --raw sizing pass (which reads no blob).
		if slices.Contains(args, "diff-tree") && slices.Contains(args, "-p") {
			diffs++
		}
		return git(ctx, d, args...)
	}
	in := Input{Base: "main", Head: "feature"}
	c, err := Identify(ctx, counting, dir, in)
	if err != nil {
		t.Fatal(err)
	}
	if diffs != 0 || c.Patch != nil || c.Files != nil {
		t.Fatalf("Identify diffed (%d diff-tree, %d bytes of patch)", diffs, len(c.Patch))
	}
	whole, err := Resolve(ctx, git, dir, in)
	if err != nil {
		t.Fatal(err)
	}
	if CacheKey(c, 1000, "jury") != CacheKey(whole, 1000, "jury") {
		t.Error("the key of an identified change differs from the resolved one's")
	}
	for i := 0; i < 2; i++ {
		if err := c.Load(ctx, counting, dir); err != nil {
			t.Fatal(err)
		}
	}
	if diffs != 1 {
		t.Errorf("Load ran diff-tree %d times, want once", diffs)
	}
	if string(c.Patch) != string(whole.Patch) || len(c.Files) != len(whole.Files) || len(c.Files) == 0 {
		t.Errorf("loaded patch %q, Resolve's %q", c.Patch, whole.Patch)
	}
	diffs = 0
	_, err = Identify(ctx, counting, dir, Input{Base: "feature", Head: "feature"})
	if _, nothing := err.(*NothingError); !nothing || diffs != 0 {
		t.Errorf("feature...feature: %v after %d diffs, want nothing to review and no diff", err, diffs)
	}
}
