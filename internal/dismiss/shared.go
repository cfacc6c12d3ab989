package dismiss

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// sharedDepth is how many of a shared file path's last components are the
// repository's (.tribunal and dismissed): none of them may be a symbolic
// link (store.NoLinks).
var sharedDepth = strings.Count(SharedFile, "/") + 1

// linkDepth is how much of path NoLinks checks: a repository's shared file
// (a path ending in SharedFile) is checked to its .tribunal directory; a
// file the user named (review --dismissed FILE) is theirs to link.
func linkDepth(path string) int {
	if strings.HasSuffix(filepath.ToSlash(filepath.Clean(path)), "/"+SharedFile) {
		return sharedDepth
	}
	return 0
}

// ReadSharedText is the shared file's text ("" for a missing file), read
// through no symbolic link (see linkDepth).
func ReadSharedText(path string) (string, error) {
	data, err := store.ReadRepoFile(path, linkDepth(path), maxFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read the dismissed findings %s: %w", path, err)
	}
	return string(data), nil
}

// ReadShared reads a repository's shared file; a missing file dismisses
// nothing.
func ReadShared(path string) ([]Entry, error) {
	text, err := ReadSharedText(path)
	if err != nil {
		return nil, err
	}
	return ParseShared(text), nil
}

// AppendShared adds e's lines to the shared file at path, creating it
// (and .tribunal) when missing, never through a symbolic link: a
// committed .tribunal link made `dismiss --shared` write outside the
// repository.
func AppendShared(path string, e Entry) error {
	if err := store.NoLinks(path, linkDepth(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	// Checked again: MkdirAll follows a link that appeared meanwhile.
	if err := store.NoLinks(path, linkDepth(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fh, err := store.OpenInPlace(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(SharedLines(e)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReplaceShared writes text as the shared file at path (a rename, which
// replaces a final link rather than writing through it), never into a
// linked .tribunal.
func ReplaceShared(path, text string) error {
	if err := store.NoLinks(path, linkDepth(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := store.WriteFileAtomic(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
