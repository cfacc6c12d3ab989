package gitstate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestWithoutSecrets: the Stop judge's diff and the fingerprint leave out
// untracked files that look like secrets, by name or content, and say
// which; a tree with nothing else untracked is clean.
func TestWithoutSecrets(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	ctx := context.Background()
	testkit.WriteFile(t, filepath.Join(dir, ".env"), "TOKEN=sekrit\n")
	testkit.WriteFile(t, filepath.Join(dir, "keys/deploy"), "-----BEGIN EC PRIVATE KEY-----\nsekrit\n")
	st, err := Status(ctx, g.runner(), dir)
	if err != nil {
		t.Fatal(err)
	}
	clean, leftOut := st.WithoutSecrets(dir, secretfiles.Rule{})
	if clean.Dirty() || !slices.Equal(leftOut, []string{".env", "keys/deploy"}) || len(st.Untracked) != 2 {
		t.Fatalf("WithoutSecrets = %+v, %q (from %+v)", clean, leftOut, st)
	}
	fp, err := Fingerprint(ctx, g.runner(), dir, clean)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(dir, ".env"), "TOKEN=rotated\n")
	st, err = Status(ctx, g.runner(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st, _ = st.WithoutSecrets(dir, secretfiles.Rule{})
	if fp2, err := Fingerprint(ctx, g.runner(), dir, st); err != nil || fp2 != fp {
		t.Errorf("the fingerprint changed with a secret's content: %v", err)
	}
	testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "hello\n")
	st, err = Status(ctx, g.runner(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st, leftOut = st.WithoutSecrets(dir, secretfiles.Rule{})
	if !slices.Equal(st.Untracked, []string{"new.txt"}) || len(leftOut) != 2 {
		t.Fatalf("untracked %q, left out %q", st.Untracked, leftOut)
	}
	files, err := Diff(ctx, g.runner(), dir, st)
	if err != nil {
		t.Fatal(err)
	}
	if out := unidiff.Render(files, 1<<20); strings.Contains(out, "sekrit") || strings.Contains(out, ".env") || !strings.Contains(out, "new.txt") {
		t.Errorf("diff:\n%s", out)
	}
}
