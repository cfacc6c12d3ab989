package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrLinkInRepo is wrapped by NoLinks's error: a repository path tribunal
// reads policy from or writes to is, or lies under, a symbolic link.
var ErrLinkInRepo = errors.New("is a symbolic link, which tribunal does not follow in a repository's .tribunal")

// NoLinks refuses path when it or any of its last depth-1 parent
// directories is a symbolic link (depth 2 for ".tribunal/dismissed": the
// file and the .tribunal directory). A repository's .tribunal files come
// from whoever wrote the commit: a committed link there would have
// tribunal write its dismissals anywhere the user can write, or read its
// trust list and dismissals from outside the repository. Components that
// do not exist pass; the caller's own open reports them. Writers follow
// this with an O_NOFOLLOW open (OpenInPlace) or a rename, so the last
// component cannot be swapped for a link in between either.
func NoLinks(path string, depth int) error {
	p := filepath.Clean(path)
	for range depth {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return &fs.PathError{Op: "open", Path: p, Err: ErrLinkInRepo}
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		p = filepath.Dir(p)
	}
	return nil
}

// ReadRepoFile is ReadRegular for a file of a repository's .tribunal
// (see NoLinks): no link anywhere in its last depth components.
func ReadRepoFile(path string, depth int, max int64) ([]byte, error) {
	if err := NoLinks(path, depth); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscallNoFollowNonblock, 0)
	if err != nil {
		return nil, linkError(path, err)
	}
	f, err = requireType(f, path, fs.FileMode.IsRegular)
	if err != nil {
		return nil, err
	}
	return readBounded(f, max)
}
