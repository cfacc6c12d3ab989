package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Guard compares the repository's git files with the copy taken when the
// task started, puts back what the task changed, and returns the changes
// (also added to t.Tampered). Commit runs it before recording the actor's
// work; the caller runs it once more before deciding the task's fate. It
// then pins the filter and merge-driver configuration tribunal's own git
// uses in the task to what it was at the start (pins), for what could not
// be put back or lives outside the repository (an included file, the
// user's global configuration).
func (m *Manager) Guard(ctx context.Context, t *Task) []records.Tamper {
	if t.guard == nil {
		return nil
	}
	ts := m.check(ctx, t, t.guard)
	t.Tampered = append(t.Tampered, ts...)
	dir := t.Path
	if _, err := os.Stat(dir); err != nil {
		dir = t.UserRoot
	}
	if cur, err := m.pinnedConfig(ctx, dir); err == nil {
		t.pins = pinArgs(t.guard.config, cur)
	}
	return ts
}

// pinnedConfig reads the effective configuration in dir (every level and
// include) and keeps the variables that make git run a program on file
// content: filter drivers (clean, smudge, process, required) and merge
// drivers.
func (m *Manager) pinnedConfig(ctx context.Context, dir string) (map[string]string, error) {
	out, err := m.git(ctx, dir, "config", "--list", "-z")
	if err != nil {
		return nil, fmt.Errorf("read the git configuration: %w", err)
	}
	all := parseConfigList(string(out))
	pinned := map[string]string{}
	for k, v := range all {
		if pinnedKey(k) != "" {
			pinned[k] = v
		}
	}
	return pinned, nil
}

// pinnedKey returns the neutral value of a pinned variable ("" when k is
// not pinned): an empty command runs no filter, a filter that is not
// required may be absent, and a merge driver that is `false` reports a
// conflict instead of running anything.
func pinnedKey(k string) string {
	section, rest, ok := strings.Cut(k, ".")
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return ""
	}
	switch name := rest[i+1:]; {
	case section == "filter" && (name == "clean" || name == "smudge" || name == "process"):
		return "="
	case section == "filter" && name == "required", section == "merge" && name == "driver":
		return "=false"
	}
	return ""
}

// pinArgs are the -c options that give every pinned variable whose value
// differs from the start its starting value, or the neutral one when it
// did not exist then.
func pinArgs(start, cur map[string]string) []string {
	var keys []string
	for k, v := range cur {
		if s, ok := start[k]; !ok || s != v {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var args []string
	for _, k := range keys {
		if s, ok := start[k]; ok {
			args = append(args, "-c", k+"="+s)
		} else {
			args = append(args, "-c", k+pinnedKey(k))
		}
	}
	return args
}

// parseConfigList reads `git config --list -z`: "key\nvalue\0", or "key\0"
// for a variable without a value. The last value of a key wins, as in git.
func parseConfigList(s string) map[string]string {
	out := map[string]string{}
	for _, rec := range strings.Split(s, "\x00") {
		if rec == "" {
			continue
		}
		k, v, _ := strings.Cut(rec, "\n")
		out[k] = v
	}
	return out
}

// maxConfigNames bounds how many changed variables a Tamper names.
const maxConfigNames = 6

// configChange names the variables that differ between a config file's
// copy and its current content ("filter.x.clean added, core.hookspath
// changed"); values are not shown (a URL may hold a token). Both versions
// are read by `git config --file` from private copies, never from the
// task's path, which may no longer be a regular file.
func (m *Manager) configChange(ctx context.Context, t *Task, was guardEntry, path string) string {
	now := readEntry(path)
	switch {
	case !now.exists:
		return ""
	case !now.mode.IsRegular():
		return "now " + describeMode(now.mode)
	case now.data == nil || (was.exists && was.data == nil):
		return ""
	}
	list := func(data []byte) (map[string]string, error) {
		f, err := os.CreateTemp(m.taskDir(t), ".config-")
		if err != nil {
			return nil, err
		}
		defer os.Remove(f.Name())
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		out, err := m.git(ctx, filepath.Dir(f.Name()), "config", "--file", f.Name(), "--list", "-z")
		if err != nil {
			return nil, err
		}
		return parseConfigList(string(out)), nil
	}
	before, err1 := list(was.data)
	after, err2 := list(now.data)
	if err1 != nil || err2 != nil {
		return "unreadable as git configuration"
	}
	var names []string
	for k, v := range after {
		if old, ok := before[k]; !ok {
			names = append(names, k+" added")
		} else if old != v {
			names = append(names, k+" changed")
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			names = append(names, k+" removed")
		}
	}
	sort.Strings(names)
	if len(names) > maxConfigNames {
		names = append(names[:maxConfigNames], fmt.Sprintf("%d more", len(names)-maxConfigNames))
	}
	return strings.Join(names, ", ")
}

// describeMode names a file type the way the summaries do.
func describeMode(mode os.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&os.ModeSymlink != 0:
		return "a symbolic link"
	case mode&os.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&os.ModeSocket != 0:
		return "a socket"
	case mode&os.ModeCharDevice != 0:
		return "a character device"
	case mode&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// readNoFollow reads a regular file of at most limit bytes without
// following a final symbolic link or blocking on a pipe.
func readNoFollow(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > limit {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, limit)
	}
	data := make([]byte, st.Size())
	n, err := f.ReadAt(data, 0)
	if err != nil && n != len(data) {
		return nil, err
	}
	return data[:n], nil
}
