package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// A task's record is <dir>/<task-id>.json, in the project's worktrees
// directory or the per-user fallback; this file reads, writes, lists and
// cleans them.

// orphanAge is how old a worktree directory without a record must be
// before Cleanup removes it.
const orphanAge = 10 * time.Minute

func recordPath(dir, id string) string { return filepath.Join(dir, id+".json") }

func (m *Manager) save(t *Task) error {
	if t.dir == "" {
		t.dir = m.Dir
	}
	return store.WriteJSON(recordPath(t.dir, t.ID), t)
}

// dirs are the directories records may live in: Dir, and Fallback while
// it is private to this user.
func (m *Manager) dirs() []string {
	if m.Fallback == "" || m.Fallback == m.Dir || privateRoot(m.Fallback, false) != nil {
		return []string{m.Dir}
	}
	return []string{m.Dir, m.Fallback}
}

// Load reads the record of task id.
func (m *Manager) Load(id string) (*Task, error) {
	for _, dir := range m.dirs() {
		if t, err := loadFrom(dir, id); !errors.Is(err, os.ErrNotExist) {
			return t, err
		}
	}
	return nil, notKept(id)
}

// notKept is Load's error for a task with no kept record: it reads as one
// sentence ("no kept task X in this project", without Go's ": file does
// not exist") and still answers errors.Is(err, os.ErrNotExist).
type notKept string

func (id notKept) Error() string     { return "no kept task " + string(id) + " in this project" }
func (notKept) Is(target error) bool { return target == os.ErrNotExist }

func loadFrom(dir, id string) (*Task, error) {
	data, ok := store.ReadOptional(recordPath(dir, id), 1<<20, func(string) {})
	if !ok {
		return nil, os.ErrNotExist
	}
	t := &Task{dir: dir}
	if err := jsonUnmarshal(data, t); err != nil {
		return nil, fmt.Errorf("the record of task %s is damaged: %w", id, err)
	}
	if t.ID != id || !validRef(t.Branch, id) {
		return nil, fmt.Errorf("the record of task %s is damaged: it names task %q, branch %q", id, t.ID, t.Branch)
	}
	return t, nil
}

// Cleanup removes what crashed runs left behind: records whose owner is
// no longer alive while still creating or running (their worktree, branch
// and record), worktree directories without a record, git's entries for
// worktrees that no longer exist, and pool members that are surplus or
// idle too long (PrunePool). It returns the ids of the tasks removed.
func (m *Manager) Cleanup(ctx context.Context, userRoot string) []string {
	var done []string
	for _, dir := range m.dirs() {
		done = append(done, m.cleanupDir(ctx, dir, userRoot)...)
	}
	m.worktreeGit(ctx, userRoot, "prune")
	// Surplus and long-idle pool members go quietly: they are a cache.
	m.PrunePool(ctx, userRoot, false)
	return done
}

func (m *Manager) cleanupDir(ctx context.Context, dir, userRoot string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	alive := m.Alive
	if alive == nil {
		alive = ProcessAlive
	}
	var done []string
	recorded := map[string]bool{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		recorded[id] = true
		t, err := loadFrom(dir, id)
		if err != nil || t.State == Kept || (t.PID > 0 && alive(t.PID)) {
			continue
		}
		if t.UserRoot == "" {
			t.UserRoot = userRoot
		}
		if err := m.remove(ctx, t, true); err == nil {
			done = append(done, id)
		}
	}
	for _, e := range entries {
		// A directory without a record is a crashed run's scratch; one
		// modified lately may belong to an apply running right now.
		if info, err := e.Info(); err != nil || m.now().Sub(info.ModTime()) < orphanAge {
			continue
		}
		if e.IsDir() && !recorded[e.Name()] && e.Name() != poolName {
			p := filepath.Join(dir, e.Name())
			if _, err := m.worktreeGit(ctx, userRoot, "remove", "--force", "--force", p); err != nil {
				os.RemoveAll(p)
			}
			done = append(done, e.Name())
		}
	}
	return done
}

// RecordIDs lists the names of the task records of the project (kept,
// running or left by a crash), newest first: what `apply` and `discard`
// resolve a typed id against. Names are not checked here; the caller keeps
// the canonical ids (records.ValidID).
func (m *Manager) RecordIDs() []string {
	var out []string
	for _, dir := range m.dirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// KeptTasks lists the kept tasks of the project, oldest first. It reads
// the records only; no git runs.
func (m *Manager) KeptTasks() []Task {
	var out []Task
	for _, dir := range m.dirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
				if t, err := loadFrom(dir, id); err == nil && t.State == Kept {
					out = append(out, *t)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// begin claims dir for task t: the directory, then the record (state
// Creating) written before anything else, so a crash leaves something to
// clean. A directory it had to create is removed again when the record
// cannot be written, leaving a broken or full $ONLOOKER_DIR as it was.
func (m *Manager) begin(t *Task, dir string) error {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %q: %w", dir, err)
	}
	t.dir, t.Path = dir, filepath.Join(dir, t.ID)
	if err := m.save(t); err != nil {
		if statErr != nil {
			os.Remove(dir)
		}
		t.dir = ""
		return fmt.Errorf("record task worktree: %w", err)
	}
	return nil
}

// FallbackDir is where task worktrees go when $ONLOOKER_DIR cannot hold
// them: <tmp>/tribunal-<uid>/<project key>/worktrees. It only computes the
// path; the Manager creates it private, and trusts records there only while
// <tmp>/tribunal-<uid> is a private directory of this user (another user
// could otherwise prepare it to plant records or catch files).
func FallbackDir(tmp string, uid int, key string) string {
	if tmp == "" {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, fmt.Sprintf("tribunal-%d", uid), key, "worktrees")
}

// privateRoot checks (and with create, makes) the per-user directory two
// levels above a fallback directory.
func privateRoot(fallback string, create bool) error {
	root := filepath.Dir(filepath.Dir(fallback))
	if create {
		if err := os.Mkdir(root, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %q: %w", root, err)
		}
	}
	st, err := os.Lstat(root)
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || !ok || int(sys.Uid) != os.Getuid() || st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%q is not a private directory of this user; remove it", root)
	}
	return nil
}
