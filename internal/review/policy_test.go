package review

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// TestPolicyTreeReadsTheBaseOnly: the policy tree holds the base commit's
// policy files, regular blobs only; a file the base lacks is absent even
// when the work tree (the head) has it; a symlink and an oversized blob
// are refused with a warning; Fetch adds a schema file, and refuses a
// path out of the repository. The same from the object store, with no
// git child, and from git, when the objects are elsewhere (a clone
// --shared reads them through alternates).
func TestPolicyTreeReadsTheBaseOnly(t *testing.T) {
	r, git := repo(t)
	dir := r.Dir
	r.Git("checkout", "-q", "main")
	r.WriteFile(".claude/settings.json", `{"tribunal":{"session":{"score_threshold":0.9}}}`)
	r.WriteFile("schemas/a.json", `{"type":"object"}`)
	r.WriteFile(".claude/tribunal.toml", strings.Repeat("#", maxPolicyBytes+1))
	for link, target := range map[string]string{".tribunal": "/etc", ".claude/settings.local.json": "/etc/passwd"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "policy")
	base := r.Git("rev-parse", "HEAD")
	// The head (the work tree) adds its own policy: never read.
	r.WriteFile(".claude/tribunal.json", `{"rubrics":[]}`)
	r.WriteFile(".claude/settings.json", `{"tribunal":{"session":{"score_threshold":0.01}}}`)
	clone := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", "--shared", "--no-checkout", dir, clone)

	for _, c := range []struct {
		name, root string
		gitCalls   bool
	}{{"object store", dir, false}, {"alternates, so git", clone, true}} {
		calls := 0
		counted := func(ctx context.Context, dir string, args ...string) ([]byte, error) {
			calls++
			return git(ctx, dir, args...)
		}
		checkPolicyTree(t, c.name, counted, c.root, base)
		if (calls > 0) != c.gitCalls {
			t.Errorf("%s: %d git children, want them: %v", c.name, calls, c.gitCalls)
		}
	}
}

func checkPolicyTree(t *testing.T, name string, git projectkey.GitRunner, root, base string) {
	t.Helper()
	ctx := context.Background()
	var warnings []string
	pt, err := NewPolicyTree(ctx, git, root, base, t.TempDir(), func(s string) { warnings = append(warnings, s) })
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close()
	got, _ := os.ReadFile(filepath.Join(pt.Dir, ".claude", "settings.json"))
	if !strings.Contains(string(got), "0.9") {
		t.Errorf("%s: settings.json = %q, want the base's", name, got)
	}
	for _, absent := range []string{".claude/tribunal.json", ".claude/settings.local.json", ".claude/tribunal.toml", ".tribunal/dismissed", ".tribunal"} {
		if _, err := os.Lstat(filepath.Join(pt.Dir, absent)); err == nil {
			t.Errorf("%s: %s is in the policy tree; the base has no such regular file", name, absent)
		}
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], ".claude/settings.local.json is not a regular file (mode 120000)") ||
		!strings.Contains(warnings[1], ".claude/tribunal.toml is over") {
		t.Errorf("%s: warnings = %q, want the symlinked settings.local.json and the oversized tribunal.toml", name, warnings)
	}
	if err := pt.Fetch(ctx, "schemas/a.json"); err != nil {
		t.Fatal(err)
	}
	if err := pt.Fetch(ctx, "../outside.json"); err != nil {
		t.Fatal(err)
	}
	if want := []string{".claude/settings.json", "schemas/a.json"}; !reflect.DeepEqual(pt.Fetched, want) {
		t.Errorf("%s: Fetched = %q, want %q", name, pt.Fetched, want)
	}
	pt.Close()
	if _, err := os.Stat(pt.Dir); err == nil {
		t.Errorf("%s: Close left the policy tree", name)
	}
}

// TestPolicyEdits: the policy files a change touches, on either side of
// a rename, plus the extra ones named; other files are not policy.
func TestPolicyEdits(t *testing.T) {
	files := []unidiff.File{
		{OldPath: "main.go", NewPath: "main.go"},
		{NewPath: ".tribunal/dismissed"},
		{OldPath: ".claude/tribunal.json", NewPath: "old-rubric.json"},
		{OldPath: "schemas/a.json", NewPath: "schemas/a.json"},
		{OldPath: ".claude/settings.local.json"},
		{NewPath: "docs/.claude/settings.json"},
	}
	got := PolicyEdits(files, "schemas/a.json")
	want := []string{".claude/settings.local.json", ".claude/tribunal.json", ".tribunal/dismissed", "schemas/a.json"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PolicyEdits = %q, want %q", got, want)
	}
	if PolicyEdits(files[:1]) != nil {
		t.Error("a change to main.go edits no policy")
	}
	for _, c := range []struct {
		kind string
		want bool
	}{{KindRange, true}, {KindDiff, true}, {KindStaged, false}, {KindWorkTree, false}} {
		if got := (&Change{Kind: c.kind}).Untrusted(); got != c.want {
			t.Errorf("%s: Untrusted = %v, want %v", c.kind, got, c.want)
		}
	}
}

// TestPolicyTreeWithoutFilesMakesNoDirectory: a base without policy files
// costs no directory (every reader finds nothing at Dir, as in the
// base); Fetch makes it, private, and refuses a directory someone put
// at its name.
func TestPolicyTreeWithoutFilesMakesNoDirectory(t *testing.T) {
	r, git := repo(t)
	ctx := context.Background()
	base := r.Git("rev-parse", "main")
	pt, err := NewPolicyTree(ctx, git, r.Dir, base, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(pt.Dir); !os.IsNotExist(err) {
		t.Fatalf("a base without policy files made %s (%v)", pt.Dir, err)
	}
	if err := pt.Fetch(ctx, "schemas/none.json"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(pt.Dir); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Fatalf("Fetch: %s is %v (%v), want a private directory", pt.Dir, st, err)
	}
	pt.Close()
	if _, err := os.Lstat(pt.Dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s", pt.Dir)
	}

	planted, err := NewPolicyTree(ctx, git, r.Dir, base, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(planted.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := planted.Fetch(ctx, "schemas/none.json"); err == nil {
		t.Error("Fetch used a directory it did not make")
	}
	planted.Close()
	if _, err := os.Lstat(planted.Dir); err != nil {
		t.Error("Close removed a directory it did not make")
	}
}
