package rejudge

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// tree gives the judges a directory holding the iteration's tree: the
// task branch's commit after its actor, extracted with `git archive` from
// the repository (read-only: no worktree, no checkout, no ref touched).
// When the commit is unknown or gone (an old task, a discarded branch
// since collected) the directory is empty and note says so: the judges
// then have the recorded diff only.
func tree(ctx context.Context, d Deps, repo, commit string) (dir, note string, cleanup func()) {
	root, err := os.MkdirTemp(d.TempDir, "tribunal-rejudge-")
	if err != nil {
		return "", "no working directory for the judges: " + err.Error(), func() {}
	}
	cleanup = func() { os.RemoveAll(root) }
	dir = filepath.Join(root, "tree")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return dir, "no working directory for the judges: " + err.Error(), cleanup
	}
	if commit == "" || repo == "" {
		return dir, "the iteration's commit is not recorded: the judges saw the recorded diff only", cleanup
	}
	out, err := d.Git(ctx, repo, "archive", "--format=tar", commit)
	if err != nil {
		return dir, fmt.Sprintf("commit %s is no longer in the repository: the judges saw the recorded diff only", short(commit)), cleanup
	}
	if err := untar(bytes.NewReader(out), dir); err != nil {
		return dir, fmt.Sprintf("commit %s could not be extracted (%v): the judges saw the recorded diff only", short(commit), err), cleanup
	}
	return dir, "", cleanup
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// untar extracts regular files and directories whose names stay inside
// dir; links and special files are skipped.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name == "." || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(full, 0o700); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
				return err
			}
			f, err := os.OpenFile(full, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600|os.FileMode(h.Mode)&0o100)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
