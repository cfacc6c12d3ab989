package worktree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Default bounds on what a task may produce (spec §7.13): a file larger
// than DefaultFileBytes, or a change adding more than DefaultTaskBytes of
// new or rewritten files, is not recorded. Both are checked from file
// sizes before git reads any content.
const (
	DefaultFileBytes = 50 << 20
	DefaultTaskBytes = 200 << 20
)

// Limits bound what a task may produce; zero fields mean the defaults.
type Limits struct {
	FileBytes int64
	TaskBytes int64
}

// File is the per-file bound in bytes (session.max_file_mb).
func (l Limits) File() int64 {
	if l.FileBytes > 0 {
		return l.FileBytes
	}
	return DefaultFileBytes
}

// Task is the bound in bytes on a whole change (session.max_change_mb).
func (l Limits) Task() int64 {
	if l.TaskBytes > 0 {
		return l.TaskBytes
	}
	return DefaultTaskBytes
}

// RefusalLine is the one wording of a refusal.
func RefusalLine(r records.Refusal) string { return r.Path + ": " + r.Reason }

// scan lists what `git add --all` would record in the task worktree (the
// index's paths and the untracked, not ignored ones, as git's own walk
// finds them) and refuses what it must not read or cannot record. It
// stats files and reads no content.
func (m *Manager) scan(ctx context.Context, t *Task) ([]records.Refusal, map[string]bool, error) {
	cached, err := m.git(ctx, t.Path, "ls-files", "-z", "--cached", "--full-name")
	if err != nil {
		return nil, nil, fmt.Errorf("list the task's files: %w", err)
	}
	others, err := m.git(ctx, t.Path, "ls-files", "-z", "--others", "--exclude-standard", "--full-name")
	if err != nil {
		return nil, nil, fmt.Errorf("list the task's new files: %w", err)
	}
	tracked := map[string]bool{}
	for _, p := range splitZ(cached) {
		tracked[p] = true
	}
	sizes, err := m.treeSizes(ctx, t.Path, t.Head)
	if err != nil {
		return nil, nil, err
	}
	type grown struct {
		path string
		size int64
	}
	var refused []records.Refusal
	var growth []grown
	var total int64
	for _, p := range append(splitZ(cached), splitZ(others)...) {
		if reason := reservedPath(p); reason != "" {
			refused = append(refused, records.Refusal{Path: p, Reason: reason})
			continue
		}
		st, err := os.Lstat(filepath.Join(t.Path, filepath.FromSlash(p)))
		if err != nil {
			continue // deleted: git records the deletion
		}
		mode := st.Mode()
		switch {
		case mode.IsDir(), mode.Type() == fs.ModeSymlink:
			continue // a submodule, a link: no content to bound
		case !mode.IsRegular():
			refused = append(refused, records.Refusal{Path: p, Reason: describeMode(mode) + ": git records only files, links and directories"})
			continue
		}
		if old, ok := sizes[p]; ok && old == st.Size() {
			continue // unchanged size: not what this task grew
		}
		if st.Size() > m.Limits.File() {
			refused = append(refused, records.Refusal{Path: p, Reason: fmt.Sprintf("%s, over the per-file limit of %s (session.max_file_mb)", mib(st.Size()), mib(m.Limits.File()))})
			continue
		}
		growth = append(growth, grown{p, st.Size()})
		total += st.Size()
	}
	if total > m.Limits.Task() {
		sort.Slice(growth, func(i, j int) bool { return growth[i].size > growth[j].size })
		over := total
		for _, g := range growth {
			if over <= m.Limits.Task() {
				break
			}
			refused = append(refused, records.Refusal{Path: g.path, Reason: fmt.Sprintf("%s of a change of %s, over the per-task limit of %s (session.max_change_mb)", mib(g.size), mib(total), mib(m.Limits.Task()))})
			over -= g.size
		}
	}
	sort.Slice(refused, func(i, j int) bool { return refused[i].Path < refused[j].Path })
	return refused, tracked, nil
}

// reservedPath says why git cannot record p: a component that is ".git"
// in any case (git refuses it; on a case-insensitive file system it would
// be the repository itself).
func reservedPath(p string) string {
	for _, c := range strings.Split(p, "/") {
		if strings.EqualFold(c, ".git") {
			return "a path through " + c + ", a name git reserves for the repository itself"
		}
	}
	return ""
}

// treeSizes maps each blob of commit's tree to its size.
func (m *Manager) treeSizes(ctx context.Context, dir, commit string) (map[string]int64, error) {
	out, err := m.git(ctx, dir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
	if err != nil {
		return nil, fmt.Errorf("list the previous iteration's files: %w", err)
	}
	sizes := map[string]int64{}
	for _, rec := range splitZ(out) {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 {
			continue
		}
		if n, err := strconv.ParseInt(f[3], 10, 64); err == nil {
			sizes[path] = n
		}
	}
	return sizes, nil
}

// dropRefused takes refused paths out of the task worktree, so that it
// holds what the iteration's commit records: a tracked file is checked
// out again from the index, anything else is removed (a directory with
// what is below it; links are removed, never followed).
func (m *Manager) dropRefused(ctx context.Context, t *Task, refused []records.Refusal, tracked map[string]bool) error {
	var restore []string
	var errs []error
	for _, r := range refused {
		full := filepath.Join(t.Path, filepath.FromSlash(r.Path))
		top := reservedTop(r.Path)
		if top != "" {
			full = filepath.Join(t.Path, filepath.FromSlash(top))
		}
		if err := os.RemoveAll(full); err != nil {
			errs = append(errs, err)
		}
		if tracked[r.Path] && top == "" {
			restore = append(restore, r.Path)
		}
	}
	if len(restore) > 0 {
		args := append([]string{"checkout-index", "--force", "--quiet", "--"}, restore...)
		if _, err := m.gitPinned(ctx, t, t.Path, args...); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// reservedTop is the prefix of p up to its first reserved component ("" if
// none): removing it removes everything the actor put below it.
func reservedTop(p string) string {
	parts := strings.Split(p, "/")
	for i, c := range parts {
		if strings.EqualFold(c, ".git") {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

func splitZ(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// mib renders a size in MiB (or bytes below one).
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
