package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A review's worktree holds the commit with the patch applied, is
// recorded while it exists, and leaves nothing behind: no ref, no record,
// no worktree, the user's files as they were.
func TestCheckout(t *testing.T) {
	ctx := context.Background()
	h := newFixture(t)
	root := h.repo()
	base := strings.TrimSpace(h.git(root, "rev-parse", "HEAD"))
	patch := []byte("diff --git a/added.txt b/added.txt\nnew file mode 100644\nindex 0000000..ce01362\n--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1 @@\n+hello\n")
	tk, err := h.m.Checkout(ctx, root, "01CHECKOUT0000000000000000", base, patch)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(tk.Path, "added.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("the patch is not applied in the worktree: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "added.txt")); !os.IsNotExist(err) {
		t.Fatalf("the user's tree got the file: %v", err)
	}
	if _, err := os.Stat(recordPath(h.m.Dir, tk.ID)); err != nil {
		t.Fatalf("no record while it exists: %v", err)
	}
	if err := h.m.Finish(ctx, tk, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tk.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if out := h.git(root, "for-each-ref", "refs/tribunal/"); strings.TrimSpace(out) != "" {
		t.Fatalf("refs left: %s", out)
	}
	bad := []byte("diff --git a/nope.txt b/nope.txt\n--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-x\n+y\n")
	if _, err := h.m.Checkout(ctx, root, "01CHECKOUT0000000000000001", base, bad); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Fatalf("a patch that does not apply: %v", err)
	}
	if out := h.git(root, "worktree", "list"); len(strings.Split(strings.TrimSpace(out), "\n")) != 1 {
		t.Fatalf("a failed checkout left a worktree: %s", out)
	}
}
