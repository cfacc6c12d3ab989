package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// A fresh worktree is a full checkout of the repository: on a large one it
// costs seconds and the repository's size on disk, for every task, before
// any model call. The pool keeps the worktrees of finished tasks and brings
// one to the next task's snapshot by touching only the files that differ:
// the member is proven clean (`git status`, after a reset and `git clean`
// when the last task left it dirty) and moved to the user's HEAD tree by a
// two-way `git read-tree -m -u`, while one `git status` of the user's tree
// names what the snapshot must take from it (warm.go); the user's changes,
// if any, are a second two-way merge that writes only what they touch.
//
// A member is a slot directory <Dir>/pool/<repo>/<n> with a lock file
// <n>.lock. A task holds its slot's lock (close-on-exec, so no child
// inherits it) from Create until the run ends; a crashed run's lock goes
// with its process, and the member it leaves is reset before reuse. A
// member whose state cannot be proven clean after the reset is rebuilt.

// Pool configures the warm task worktrees; the zero value is the default
// pool.
type Pool struct {
	// Off gives every task a fresh worktree, removed when it ends.
	Off bool
	// Size is how many members a repository keeps (0: DefaultPoolSize):
	// as many tasks can start warm at once.
	Size int
	// MaxIdle is how long an unused member is kept (0: DefaultPoolMaxIdle).
	MaxIdle time.Duration
	// KeepIgnored keeps ignored files (build outputs, node_modules) in a
	// member between tasks; otherwise they are deleted at each reuse.
	// Nothing is ever copied from the user's own tree.
	KeepIgnored bool
}

const (
	// DefaultPoolSize members per repository.
	DefaultPoolSize = 2
	// DefaultPoolMaxIdle is a week.
	DefaultPoolMaxIdle = 7 * 24 * time.Hour
)

func (p Pool) size() int {
	if p.Off {
		return 0
	}
	if p.Size <= 0 {
		return DefaultPoolSize
	}
	return p.Size
}

func (p Pool) maxIdle() time.Duration {
	if p.MaxIdle <= 0 {
		return DefaultPoolMaxIdle
	}
	return p.MaxIdle
}

// poolName is the pool directory's name under Dir; cleanupDir must not
// take it for a crashed task's scratch directory.
const poolName = "pool"

// poolDir is the pool of the repository whose common git directory is
// common: clones that share an origin share a project directory, and a
// member only ever serves the repository it is a worktree of.
func (m *Manager) poolDir(common string) string {
	sum := sha256.Sum256([]byte(common))
	return filepath.Join(m.Dir, poolName, hex.EncodeToString(sum[:6]))
}

func slotPath(dir string, slot int) string { return filepath.Join(dir, strconv.Itoa(slot)) }
func slotLock(dir string, slot int) string { return slotPath(dir, slot) + ".lock" }

// claim takes the lowest free slot of the pool of the repository whose
// common git directory is common, without waiting: every slot busy (or
// the pool off) means a fresh worktree.
func (m *Manager) claim(common string) (s slotClaim, ok bool) {
	n := m.Pool.size()
	if n == 0 || common == "" {
		return s, false
	}
	s.common, s.dir = common, m.poolDir(common)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return s, false
	}
	for s.slot = 0; s.slot < n; s.slot++ {
		if unlock, err := store.LockFile(slotLock(s.dir, s.slot), true, 0); err == nil {
			s.unlock = unlock
			return s, true
		}
	}
	return s, false
}

// slotClaim is a pool slot taken: its pool directory, number and lock,
// and the repository's common git directory it was found from.
type slotClaim struct {
	common, dir string
	slot        int
	unlock      func()
}

// startWarm brings the member at t.Path to a new snapshot of the user's
// tree and returns the member's own git directory. ok is false when there
// is no usable member there (none yet, or one that is damaged, belongs
// elsewhere or cannot be proven clean); the caller then builds one.
//
// The member is made ready (readyMember: proven clean, then at base's
// tree) while the one walk of the user's tree (userStatus) runs: they
// read different trees, and each costs about a `git status`. When the
// user has no uncommitted change the snapshot is base's tree and the
// member is already there; otherwise a second two-way merge writes only
// the files the user changed.
func (m *Manager) startWarm(ctx context.Context, t *Task, userRoot, common, base string) (gitDir string, ok bool, err error) {
	ready := make(chan string, 1)
	go func() { ready <- m.readyMember(ctx, common, t.Path, base) }()
	changes, err := m.userStatus(ctx, userRoot)
	var paths, leftOut []string
	var over []records.Refusal
	snap, tree := "", base+"^{tree}"
	if err == nil {
		if paths, leftOut, over = m.snapshotPaths(userRoot, changes.untracked, changes.changed); len(paths) == 0 && !changes.staged {
			// Nothing differs from HEAD: the snapshot is base's tree, and
			// it is committed while the member is still being readied.
			snap, err = m.snapshotRef(ctx, t, userRoot, tree, base)
		}
	}
	if gitDir = <-ready; gitDir == "" {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if snap == "" {
		if tree, leftOut, over, err = m.captureChanges(ctx, t.Path, userRoot, base, paths, leftOut, over); err != nil || tree == "" {
			return "", false, err
		}
		if snap, err = m.snapshotRef(ctx, t, userRoot, tree, base); err != nil {
			return "", false, err
		}
		// The user's changes: from base's tree, which the member's index
		// and files now hold, to the snapshot's.
		if _, err := m.git(ctx, t.Path, "read-tree", "-m", "-u", base, snap); err != nil {
			return "", false, nil
		}
	}
	if _, err := m.git(ctx, t.Path, "update-ref", "--no-deref", "HEAD", snap); err != nil {
		return "", false, nil
	}
	t.LeftOut, t.TooLarge, t.Snapshot, t.Head, t.Warm = leftOut, over, snap, snap, true
	return gitDir, true, nil
}

// readyMember makes the member at path ready for a snapshot on commit
// base: it must be a worktree of the user's repository (common), be
// proven clean, and then hold base's tree in its index and files, HEAD
// left where it was. It returns the member's own git directory, "" when
// the member cannot serve.
func (m *Manager) readyMember(ctx context.Context, common, path, base string) string {
	gitDir := m.memberGitDir(ctx, common, path)
	if gitDir == "" || !m.proveClean(ctx, path) {
		return ""
	}
	trees, err := m.gitLine(ctx, path, "rev-parse", "HEAD^{tree}", base+"^{tree}")
	if lines := strings.Split(trees, "\n"); err != nil || len(lines) != 2 {
		return ""
	} else if lines[0] == lines[1] {
		return gitDir // the last task's tree is base's (nothing kept)
	}
	// A two-way merge from the proven-clean HEAD writes and deletes only
	// the entries that differ, and refuses (so the member is rebuilt) if
	// any of them is not as HEAD has it. Unlike `git checkout`, it does
	// not stat the whole tree again to report local changes.
	if _, err := m.git(ctx, path, "read-tree", "-m", "-u", "HEAD", base); err != nil {
		return ""
	}
	return gitDir
}

// memberGitDir is the own git directory of the linked worktree at path
// when it is a worktree of the user's repository (common), else "".
func (m *Manager) memberGitDir(ctx context.Context, common, path string) string {
	if _, err := os.Lstat(filepath.Join(path, ".git")); err != nil {
		return ""
	}
	its, err := m.gitLine(ctx, path, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel", "--absolute-git-dir")
	lines := strings.Split(its, "\n")
	if err != nil || len(lines) != 3 || lines[0] != common || !sameDir(lines[1], path) {
		return ""
	}
	return lines[2]
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// proveClean makes sure the member holds exactly its HEAD: no change to a
// tracked file, nothing untracked, nothing ignored unless ignored files
// are kept. A member left dirty (a crashed run, an actor's stray files) is
// reset and cleaned once and must then pass the same check.
func (m *Manager) proveClean(ctx context.Context, path string) bool {
	status := []string{"status", "--porcelain", "-z", "--untracked-files=all"}
	clean := []string{"clean", "-ffdq"}
	if !m.Pool.KeepIgnored {
		status = append(status, "--ignored")
		clean = append(clean, "-x")
	}
	for attempt := 0; ; attempt++ {
		out, err := m.git(ctx, path, status...)
		if err == nil && len(out) == 0 {
			return true
		}
		if err != nil || attempt == 1 {
			return false
		}
		if _, err := m.git(ctx, path, "reset", "--hard", "--quiet", "HEAD"); err != nil {
			return false
		}
		if _, err := m.git(ctx, path, clean...); err != nil {
			return false
		}
	}
}

// dropMember removes a member's worktree (it could not be proven clean,
// or it is idle too long): git's way first, the directory itself when
// git no longer knows it.
func (m *Manager) dropMember(ctx context.Context, userRoot, path string) {
	if _, err := m.worktreeGit(ctx, userRoot, "remove", "--force", "--force", path); err != nil {
		os.RemoveAll(path)
	}
	m.worktreeGit(ctx, userRoot, "prune")
}

// release hands the task's member back to the pool, marking when it was
// last used, instead of removing it.
func (t *Task) release() {
	if t.unlock == nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(t.Path+".lock", now, now)
	t.unlock()
	t.unlock = nil
}

// PoolUsage is what the idle pool holds on disk.
type PoolUsage struct {
	Members int
	Bytes   int64
}

// Usage measures every pool of the project (all repositories sharing it).
func (m *Manager) Usage() PoolUsage {
	var u PoolUsage
	repos, _ := os.ReadDir(filepath.Join(m.Dir, poolName))
	for _, r := range repos {
		dir := filepath.Join(m.Dir, poolName, r.Name())
		slots, _ := os.ReadDir(dir)
		for _, s := range slots {
			if !s.IsDir() {
				continue
			}
			u.Members++
			u.Bytes += diskUse(filepath.Join(dir, s.Name()))
		}
	}
	return u
}

// PrunePool removes the members of the repository at userRoot that nobody
// holds and that are surplus (beyond the pool's size, or every one when
// all is set) or idle longer than MaxIdle. It returns how many it removed.
func (m *Manager) PrunePool(ctx context.Context, userRoot string, all bool) int {
	common, err := m.gitLine(ctx, userRoot, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return 0
	}
	dir := m.poolDir(common)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	removed := 0
	for _, e := range entries {
		slot, err := strconv.Atoi(e.Name())
		if err != nil || !e.IsDir() || slot < 0 {
			continue
		}
		if m.pruneSlot(ctx, userRoot, dir, slot, all) {
			removed++
		}
	}
	return removed
}

func (m *Manager) pruneSlot(ctx context.Context, userRoot, dir string, slot int, all bool) bool {
	unlock, err := store.LockFile(slotLock(dir, slot), true, 0)
	if err != nil {
		return false // in use
	}
	defer unlock()
	idle := time.Duration(0)
	if info, err := os.Stat(slotLock(dir, slot)); err == nil {
		idle = m.now().Sub(info.ModTime())
	}
	if !all && slot < m.Pool.size() && idle <= m.Pool.maxIdle() {
		return false
	}
	// The lock file stays: removing it while another process may have it
	// open would let two runs each lock a different file for one slot.
	m.dropMember(ctx, userRoot, slotPath(dir, slot))
	return true
}

// diskUse is what the files under dir occupy on disk (allocated blocks,
// which for a tree of small files is far more than their sizes).
func diskUse(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				n += int64(st.Blocks) * 512
			} else {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
