package gitstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/unidiff"
)

// untrackedReadCap bounds how much of one untracked file is read for a
// judge's prompt; the prompt's own budget is far smaller, and the rest of
// the file is summarised by its size.
const untrackedReadCap = 256 << 10

// generatedSniffBytes is how much of a changed tracked file is read to look
// for a "generated, do not edit" marker that the diff's context lines did
// not show.
const generatedSniffBytes = 2048

// diffFlags make diff-index output independent of external diff drivers,
// textconv filters, colour and prefix settings, and detect renames.
var diffFlags = []string{"-p", "-M", "--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/"}

// Diff returns the work tree's change against HEAD (against the empty tree
// on an unborn branch), ready for unidiff.Render: tracked changes, staged
// and unstaged together, from one `git diff-index -p -M <base> --`, then
// every untracked, non-ignored path of st as an addition read from the file
// system, all sorted by path. st must come from Status on the same root.
//
// diff-index is plumbing: unlike `git diff` it never refreshes the index,
// so it writes nothing under .git and triggers no post-index-change hook
// (a file whose stat data alone changed is compared by content and left
// out). Binary files get their size from the work tree, and a changed file
// whose first bytes declare it generated is marked so.
func Diff(ctx context.Context, git projectkey.GitRunner, root string, st State) ([]unidiff.File, error) {
	base := "HEAD"
	if st.Head == InitialHead {
		tree, err := emptyTree(ctx, git, root)
		if err != nil {
			return nil, err
		}
		base = tree
	}
	out, err := git(ctx, root, diffCmd("diff-index", diffFlags, base)...)
	if err != nil {
		return nil, fmt.Errorf("diff of %q: %w", root, err)
	}
	files := unidiff.Parse(out)
	for i := range files {
		f := &files[i]
		if f.NewPath == "" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.NewPath))
		if f.Binary && f.Size < 0 {
			if fi, err := os.Lstat(p); err == nil {
				f.Size = fi.Size()
			}
		}
		if !f.Binary && !f.Generated {
			if head, _, err := readRegular(p, generatedSniffBytes); err == nil {
				f.Generated = unidiff.IsGenerated(f.NewPath, head)
			}
		}
	}
	for _, u := range st.Untracked {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("diff of %q: %w", root, err)
		}
		files = append(files, untrackedFile(root, u))
	}
	slices.SortStableFunc(files, func(a, b unidiff.File) int { return strings.Compare(a.Path(), b.Path()) })
	return files, nil
}

// untrackedFile describes one untracked path as an addition: a regular
// file with (a bounded prefix of) its content, a symlink with its target,
// a nested repository ("dir/") or anything else by name only.
func untrackedFile(root, rel string) unidiff.File {
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return unidiff.NewFile(rel, "100644", nil, 0)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(p)
		return unidiff.NewFile(rel, "120000", []byte(target), int64(len(target)))
	case fi.Mode().IsRegular():
		mode := "100644"
		if fi.Mode().Perm()&0o111 != 0 {
			mode = "100755"
		}
		content, size, err := readRegular(p, untrackedReadCap)
		if err != nil {
			return unidiff.NewFile(rel, mode, nil, 0)
		}
		return unidiff.NewFile(rel, mode, content, size)
	}
	// A nested repository (listed as "dir/") or a special file: its name
	// is all there is to show.
	return unidiff.NewFile(rel, "160000", nil, 0)
}

// errNotRegular refuses a path that is not a regular file once opened.
var errNotRegular = errors.New("not a regular file")

// readRegular reads at most limit bytes of the regular file at path and
// returns them with the file's size. O_NONBLOCK keeps open(2) from waiting
// for a writer should the path have become a FIFO since it was listed; the
// type check then refuses it.
func readRegular(path string, limit int64) ([]byte, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, 0, err
	}
	return b, fi.Size(), nil
}
