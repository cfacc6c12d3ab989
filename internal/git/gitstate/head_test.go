package gitstate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestCommitTreeAgreesWithGit: a commit's tree read from the object store,
// loose and packed, is git's; what it cannot read (a tag, a missing
// object, a malformed id) is not answered.
func TestCommitTreeAgreesWithGit(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	testkit.WriteFile(t, filepath.Join(dir, "more.txt"), "more\n")
	g.commitAll(dir, "second")
	g.Run(dir, "tag", "-a", "-m", "annotated", "v1")
	common := filepath.Join(dir, ".git")
	commits := strings.Fields(g.Run(dir, "rev-list", "HEAD"))
	for _, packed := range []bool{false, true} {
		if packed {
			g.Run(dir, "gc", "-q")
		}
		for _, c := range commits {
			want := strings.TrimSpace(g.Run(dir, "rev-parse", c+"^{tree}"))
			if got, ok := CommitTree(common, c); !ok || got != want {
				t.Errorf("packed %v: CommitTree(%s) = %q, %v; git says %s", packed, c, got, ok, want)
			}
		}
		tag := strings.TrimSpace(g.Run(dir, "rev-parse", "v1"))
		if got, ok := CommitTree(common, tag); ok {
			t.Errorf("packed %v: an annotated tag read as a commit with tree %s", packed, got)
		}
		if _, ok := CommitTree(common, strings.Repeat("0", 40)); ok {
			t.Errorf("packed %v: a missing object was read", packed)
		}
	}
	if _, ok := CommitTree(common, "HEAD"); ok {
		t.Error("a ref name was taken for an object id")
	}
}
