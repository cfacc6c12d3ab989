package calibrate

import (
	"context"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
)

// workdir is one case's working tree: its files with its diff applied,
// where the judges run as they would in the task's worktree.
type workdir struct {
	Dir string
	// Note says why the judges see the files without the change (the diff
	// does not apply to them); "" when it applied.
	Note string
	root string
}

// materialise writes c's files under a new temporary directory inside
// tmp and applies c's diff to them with the user's git (`git apply` needs no
// repository). A diff that does not apply is not an error: the judges
// still get it in their prompt; Note records it.
func materialise(ctx context.Context, git projectkey.GitRunner, tmp string, c Case) (*workdir, error) {
	root, err := os.MkdirTemp(tmp, "case-*")
	if err != nil {
		return nil, fmt.Errorf("create a working directory for case %q: %w", c.ID, err)
	}
	w := &workdir{root: root, Dir: filepath.Join(root, "work")}
	fail := func(err error) (*workdir, error) {
		w.remove()
		return nil, err
	}
	if err := os.Mkdir(w.Dir, 0o700); err != nil {
		return fail(err)
	}
	for _, p := range sortedFiles(c.Files) {
		full := filepath.Join(w.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			return fail(fmt.Errorf("case %q: %w", c.ID, err))
		}
		if err := os.WriteFile(full, []byte(c.Files[p]), 0o600); err != nil {
			return fail(fmt.Errorf("case %q: %w", c.ID, err))
		}
	}
	// A repository of its own: `git apply` resolves paths from the
	// repository root, and tmp may lie inside some other repository; and
	// judges that run `git diff` see the change as they would in a task.
	steps := [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=tribunal", "-c", "user.email=tribunal@localhost", "-c", "commit.gpgsign=false",
		"commit", "-q", "--no-verify", "--allow-empty", "-m", "case " + c.ID}}
	for _, args := range steps {
		if _, err := git(ctx, w.Dir, args...); err != nil {
			return fail(fmt.Errorf("case %q: prepare its working directory: %w", c.ID, err))
		}
	}
	patch := filepath.Join(root, "change.diff")
	if err := os.WriteFile(patch, []byte(c.Diff), 0o600); err != nil {
		return fail(fmt.Errorf("case %q: %w", c.ID, err))
	}
	if _, err := git(ctx, w.Dir, "apply", "--whitespace=nowarn", patch); err != nil {
		w.Note = "the diff does not apply to the case's files (" + safetext.FirstLine(err.Error(), 200) + "); the judges see the files unchanged"
	}
	return w, nil
}

func (w *workdir) remove() { os.RemoveAll(w.root) }
