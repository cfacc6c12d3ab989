package receipt

import (
	"context"
	"strings"
	"testing"
)

// TestJudgedBase is the table of the judged-base rule: a receipt vouches
// for a commit only when its judges saw the change from the commit's
// bound (first parent, or a pull request's merge base) to its tree
// (issue 30 item 4).
func TestJudgedBase(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	root := r.commit("a.txt", "a\n", "root")
	c1 := r.commit("b.txt", "b\n", "c1")
	// A task's snapshot of uncommitted work: a commit beside history.
	r.commit("evil.go", "package evil\n", "snapshot")
	snap := r.Git("rev-parse", "HEAD")
	r.Git("reset", "-q", "--hard", c1)
	c2 := r.commit("x.txt", "x\n", "main moves elsewhere")
	c3 := r.commit("a.txt", "a, fixed\n", "main fixes a.txt")
	tree := func(rev string) string { return r.Git("rev-parse", rev+"^{tree}") }
	// Trees a change could have: c3 plus n.txt (sees c3's fix), and c1
	// plus n.txt on top of c3 (undoes the fix in a.txt).
	r.commit("n.txt", "n\n", "change on c3")
	onC3 := tree("HEAD")
	r.Git("checkout", "-q", c1, "--", "a.txt")
	r.Git("commit", "-q", "-m", "undo the fix")
	undoes := tree("HEAD")
	empty := r.Git("hash-object", "-t", "tree", "/dev/null")

	cases := []struct {
		name                   string
		base, baseTree, commit string
		bound                  string
		why                    string
	}{
		{"base is the bound", c3, tree(c3), onC3, c3, ""},
		{"an ancestor; the base moved elsewhere", c1, tree(c1), onC3, c3, ""},
		{"an ancestor; the base moved where the change differs", c1, tree(c1), undoes, c3, `["a.txt"] changed since it and this change differs from`},
		{"the snapshot of uncommitted work", snap, tree(snap), onC3, c3, "is neither"},
		{"a descendant of the bound", c3, tree(c3), onC3, c2, "is neither"},
		{"from the empty tree", "", empty, onC3, c3, ""},
		{"no judged base recorded", "", tree(c1), onC3, c3, "records no judged base commit"},
		{"a root commit judged from a base", c1, tree(c1), tree(root), "", "this is a root commit"},
		{"a base not in the repository", strings.Repeat("1", 40), tree(c1), onC3, c3, "is not in this repository"},
		{"a base without the judged base tree", c1, tree(c3), onC3, c3, "does not have the judged base tree"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rc := Receipt{Judged: Judged{Base: tc.base, BaseTree: tc.baseTree, Tree: tc.commit}}
			why := r.g().BaseCheckFor(ctx, Commit{Tree: tc.commit}, tc.bound, nil)(rc)
			if (tc.why == "") != (why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("why = %q, want %q", why, tc.why)
			}
		})
	}
}
