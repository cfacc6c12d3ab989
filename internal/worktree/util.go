package worktree

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
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
