package worktree

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
)

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// copyIndex copies the index file src to dst (mode 0600), replacing dst,
// and gives the copy src's modification time. Git trusts an entry's stat
// data only when the file is older than the index file itself ("racy git"
// check); a copy stamped "now" would make a same-size edit made in the same
// second as the last `git add` look unchanged.
func copyIndex(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := copyFile(src, dst); err != nil {
		return err
	}
	return os.Chtimes(dst, st.ModTime(), st.ModTime())
}

// copyFile copies src to dst (mode 0600), replacing dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// versionAtLeast reads `git version X.Y.Z…` and compares X.Y.
func versionAtLeast(v string, major, minor int) bool {
	f := strings.Fields(v)
	if len(f) < 3 {
		return false
	}
	parts := strings.SplitN(f[2], ".", 3)
	if len(parts) < 2 {
		return false
	}
	x, err1 := strconv.Atoi(parts[0])
	y, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return x > major || (x == major && y >= minor)
}

// ProcessAlive reports whether pid names a running (not zombie) process.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	// EPERM: the process exists but belongs to someone else.
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && s[i+2] == 'Z' {
			return false
		}
	}
	return true
}

// worktreeGit runs a `git worktree` subcommand (add, remove, prune)
// holding the repository's worktree lock. git's worktree commands race on
// the shared .git/worktrees directory: prune and remove delete it, or an
// entry still being written, while an add is creating it, and an add that
// lists the worktrees fails on another add's half-written entry ("could
// not create directory of", "could not open '.git/worktrees/0/locked'",
// "failed to read .git/worktrees/0/commondir" — each seen when best-of-N
// candidates start at once). tribunal's own worktree commands on one
// repository therefore take turns, across processes (the lock is a file
// under Dir); when the lock cannot be had the command runs anyway.
func (m *Manager) worktreeGit(ctx context.Context, userRoot string, args ...string) ([]byte, error) {
	if unlock := m.lockWorktrees(userRoot); unlock != nil {
		defer unlock()
	}
	return m.git(ctx, userRoot, append([]string{"worktree"}, args...)...)
}

// worktreeLockWait bounds the wait for another worktree command of the
// same repository: removing a fresh worktree of a large one takes seconds.
const worktreeLockWait = 2 * time.Minute

// lockWorktrees takes the worktree lock of the repository at userRoot,
// nil when it cannot.
func (m *Manager) lockWorktrees(userRoot string) func() {
	common, err := projectkey.CommonDir(userRoot)
	if err != nil || os.MkdirAll(filepath.Join(m.Dir, poolName), 0o700) != nil {
		return nil
	}
	unlock, err := store.LockFile(m.poolDir(common)+".worktrees.lock", true, worktreeLockWait)
	if err != nil {
		return nil
	}
	return unlock
}
