package worktree

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// The repository's own git files are shared by every worktree: an actor
// that writes `.git/config`, `.git/hooks/*` or `.git/info/attributes` from
// its task worktree (the worktree's `.git` file names them, and the actor
// may run shell commands) changes what git runs for tribunal's next `git
// add` (a clean filter) and for the user's next checkout (a hook). The
// guard copies them when the task starts, compares at every point where
// tribunal runs git on the actor's work, puts back what changed, and
// records each change as a Tamper for the summary.

// guardFileBytes bounds the copy kept of one guarded file; a larger one is
// compared by size and time only and cannot be put back.
const guardFileBytes = 1 << 20

// TamperLine is the one wording of a task's changes to the repository's
// git files, without a prefix: the summary's first line, show's and
// view's warning.
func TamperLine(ts []records.Tamper) string {
	if len(ts) == 0 {
		return ""
	}
	var parts, failed []string
	for _, t := range ts {
		what := t.Change
		if t.Detail != "" {
			what += ": " + t.Detail
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", t.Path, what))
		if !t.Restored {
			failed = append(failed, fmt.Sprintf("%s: %s", t.Path, t.NotRestored))
		}
	}
	tail := " — restored to how they were when the task started"
	if len(failed) > 0 {
		tail = " — not restored: " + strings.Join(failed, "; ") + "; check them before running git here"
	}
	return "the task changed your repository's git configuration: " + strings.Join(parts, ", ") + tail
}

// guardEntry is one guarded path as it was.
type guardEntry struct {
	exists bool
	mode   fs.FileMode
	size   int64
	mtime  int64
	data   []byte // a regular file's content, when at most guardFileBytes
	target string // a symlink's target
}

func (e guardEntry) same(o guardEntry) bool {
	if e.exists != o.exists {
		return false
	}
	if !e.exists {
		return true
	}
	if e.mode != o.mode {
		return false
	}
	switch {
	case e.mode.Type() == fs.ModeSymlink:
		return e.target == o.target
	case e.mode.IsRegular() && e.data != nil && o.data != nil:
		return bytes.Equal(e.data, o.data)
	case e.mode.IsRegular():
		return e.size == o.size && e.mtime == o.mtime
	}
	return true
}

func readEntry(path string) guardEntry {
	st, err := os.Lstat(path)
	if err != nil {
		return guardEntry{}
	}
	e := guardEntry{exists: true, mode: st.Mode(), size: st.Size(), mtime: st.ModTime().UnixNano()}
	switch {
	case st.Mode().Type() == fs.ModeSymlink:
		e.target, _ = os.Readlink(path)
	case st.Mode().IsRegular() && st.Size() <= guardFileBytes:
		// O_NOFOLLOW and a regular-file check again: the path may have
		// become something else since the Lstat.
		if data, err := readNoFollow(path, guardFileBytes); err == nil {
			e.data = data
		}
	}
	return e
}

// guard is a task's copy of the repository's git files.
type guard struct {
	// root is the user's work tree, for naming paths.
	root string
	// files are the guarded paths (absolute), hooks the hooks directories
	// whose new entries count as added.
	files map[string]guardEntry
	hooks []string
	// config is the effective filter and merge-driver configuration when
	// the task started (pinnedConfig).
	config map[string]string
}

// snapshotGuard copies the git files of the user's repository (repo) and
// of the task worktree at wt, whose own git directory is wtGitDir ("":
// ask git).
func (m *Manager) snapshotGuard(ctx context.Context, userRoot, wt string, repo repoDirs, wtGitDir string) (*guard, error) {
	common := repo.common
	g := &guard{root: userRoot, files: map[string]guardEntry{}}
	paths := []string{filepath.Join(common, "config"), filepath.Join(common, "config.worktree"),
		filepath.Join(common, "info", "attributes")}
	if wtGitDir == "" {
		wtGitDir, _ = m.gitLine(ctx, wt, "rev-parse", "--absolute-git-dir")
	}
	for _, gd := range []string{repo.gitDir, wtGitDir} {
		if gd != "" && gd != common {
			paths = append(paths, filepath.Join(gd, "config.worktree"))
		}
	}
	g.hooks = []string{filepath.Join(common, "hooks")}
	paths = append(paths, g.hookEntries()...)
	for _, p := range paths {
		g.files[p] = readEntry(p)
	}
	var err error
	if g.config, err = m.pinnedConfig(ctx, wt); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *guard) hookEntries() []string {
	var out []string
	for _, dir := range g.hooks {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// check compares the guarded files with the copy, puts back what changed
// and returns the changes, in path order.
func (m *Manager) check(ctx context.Context, t *Task, g *guard) []records.Tamper {
	paths := make(map[string]bool, len(g.files))
	for p := range g.files {
		paths[p] = true
	}
	for _, p := range g.hookEntries() {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []records.Tamper
	for _, p := range sorted {
		was := g.files[p]
		now := readEntry(p)
		if was.same(now) {
			continue
		}
		tm := records.Tamper{Path: g.name(p), Change: "changed"}
		switch {
		case !was.exists:
			tm.Change = "added"
		case !now.exists:
			tm.Change = "deleted"
		}
		if filepath.Base(p) == "config" || filepath.Base(p) == "config.worktree" {
			tm.Detail = m.configChange(ctx, t, was, p)
		}
		if err := restore(p, was, now); err != nil {
			tm.NotRestored = err.Error()
		} else {
			tm.Restored = true
		}
		out = append(out, tm)
	}
	return out
}

func (g *guard) name(p string) string {
	if rel, err := filepath.Rel(g.root, p); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}

// restore puts path back as it was. It never follows a link the task
// made: a link or file is replaced by rename or removed; a directory the
// task put there is left alone and reported.
func restore(path string, was, now guardEntry) error {
	if now.exists && now.mode.IsDir() {
		return fmt.Errorf("it is now a directory")
	}
	if !was.exists {
		return os.Remove(path)
	}
	switch {
	case was.mode.IsRegular() && was.data == nil:
		return fmt.Errorf("larger than %d bytes, so no copy was kept", guardFileBytes)
	case was.mode.IsDir():
		return fmt.Errorf("it was a directory")
	}
	tmp := filepath.Join(filepath.Dir(path), ".tribunal-restore-"+filepath.Base(path))
	os.Remove(tmp)
	var err error
	if was.mode.Type() == fs.ModeSymlink {
		err = os.Symlink(was.target, tmp)
	} else {
		err = writeNew(tmp, was.data, was.mode.Perm())
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeNew writes a new file (never through an existing one) with perm,
// whatever the umask.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(path, perm)
	}
	return err
}
