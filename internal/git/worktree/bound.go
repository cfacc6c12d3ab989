package worktree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Sized is one file of a change with the size it would be read at.
type Sized struct {
	Path string
	Size int64
}

// Bound is the one rule for what of a change tribunal reads at all
// (spec §7.13): a file over l.File(), and every file that would take the
// change past l.Task() once it is there, are left out unread, each with
// its reason; the rest are kept, in order. It decides from sizes alone,
// so that a reviewed pull request's or a user's 300 MB file costs a stat,
// not a read, a hash or a patch in memory.
func (l Limits) Bound(files []Sized) (keep []string, out []records.Refusal) {
	var total int64
	for _, f := range files {
		switch {
		case f.Size > l.File():
			out = append(out, records.Refusal{Path: f.Path, Reason: fmt.Sprintf("%s, over the per-file limit of %s (session.max_file_mb)", mib(f.Size), mib(l.File()))})
		case total+f.Size > l.Task():
			out = append(out, records.Refusal{Path: f.Path, Reason: fmt.Sprintf("%s past the change's first %s, over the limit of %s on a whole change (session.max_change_mb)", mib(f.Size), mib(total), mib(l.Task()))})
		default:
			total += f.Size
			keep = append(keep, f.Path)
		}
	}
	return keep, out
}

// BoundFiles is Bound for paths of the work tree at root, sized by lstat
// (a link, a directory or a path gone counts as empty: nothing of it is
// read).
func (l Limits) BoundFiles(root string, paths []string) (keep []string, out []records.Refusal) {
	files := make([]Sized, len(paths))
	for i, p := range paths {
		files[i].Path = p
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil && st.Mode().Type()&fs.ModeType == 0 {
			files[i].Size = st.Size()
		}
	}
	return l.Bound(files)
}
