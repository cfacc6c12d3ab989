package projectkey

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// The origin URL decides the project key, and git's answer for it depends on
// every config file git reads (insteadOf rules, includes, conditional
// includes). Asking git costs a process on every hook run, which on a small
// repository is as much again as the hook's own `git status`. OriginCache
// remembers git's answer together with the identity of every file that
// could change it, and asks git again as soon as any of them changes.

// originCacheVersion is bumped when the cache entry's meaning changes, so
// an old entry is a miss, never a wrong answer.
const originCacheVersion = 1

// maxOriginCacheBytes bounds a cache entry read from the store.
const maxOriginCacheBytes = 64 << 10

// OriginCache keeps origin URLs between processes in Dir, one small JSON
// file per work tree. The zero value (Dir "") caches nothing.
type OriginCache struct {
	// Dir holds the entries (store.OriginCacheDir); "" disables the cache.
	Dir string
	// Env is the environment git runs with: its HOME, XDG_CONFIG_HOME and
	// GIT_CONFIG* variables choose which config files git reads, so an
	// entry is only valid under the same values.
	Env []string
}

// fileID is what identifies one config file's content without reading it:
// a file rewritten by `git config` (lock file, rename) gets a new inode, an
// edit in place a new size or mtime (nanoseconds). A file that does not exist is
// recorded too, so creating it is a change.
type fileID struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	Size   int64  `json:"size,omitempty"`
	Mtime  int64  `json:"mtime_ns,omitempty"`
	Ino    uint64 `json:"ino,omitempty"`
}

type originEntry struct {
	Version  int      `json:"v"`
	Worktree string   `json:"worktree"`
	Env      string   `json:"env"`
	URL      string   `json:"url"`
	HasURL   bool     `json:"has_url"`
	Files    []fileID `json:"files"`
}

func identify(path string) fileID {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{Path: path}
	}
	id := fileID{Path: path, Exists: true, Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Ino = uint64(st.Ino) //nolint:unconvert // uint32 on some platforms
	}
	return id
}

// envDigest hashes the variables that choose git's config files.
func (c OriginCache) envDigest() string {
	var vars []string
	for _, kv := range c.Env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || name == "XDG_CONFIG_HOME" || strings.HasPrefix(name, "GIT_CONFIG") {
			vars = append(vars, kv)
		}
	}
	slices.Sort(vars)
	sum := sha256.Sum256([]byte(strings.Join(vars, "\x00")))
	return hex.EncodeToString(sum[:])
}

func (c OriginCache) path(worktree string) string {
	sum := sha256.Sum256([]byte(worktree))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:8])+".json")
}

// lookup returns the cached answer for worktree when every recorded file is
// as it was.
func (c OriginCache) lookup(worktree string) (url string, has, ok bool) {
	if c.Dir == "" {
		return "", false, false
	}
	data, err := store.ReadRegular(c.path(worktree), maxOriginCacheBytes)
	if err != nil {
		return "", false, false
	}
	var e originEntry
	if json.Unmarshal(data, &e) != nil || e.Version != originCacheVersion ||
		e.Worktree != worktree || e.Env != c.envDigest() || len(e.Files) == 0 {
		return "", false, false
	}
	for _, f := range e.Files {
		if identify(f.Path) != f {
			return "", false, false
		}
	}
	return e.URL, e.HasURL, true
}

// originURL returns `git remote get-url origin` for the work tree, from the
// cache when it is still valid. has is false when there is no origin.
func (c OriginCache) originURL(ctx context.Context, worktree, common string, git GitRunner) (string, bool) {
	if url, has, ok := c.lookup(worktree); ok {
		return url, has
	}
	// The files are identified before git reads them: an edit that lands
	// while git runs then makes the next lookup a miss, never a stale hit.
	files := c.configFiles(ctx, worktree, common, git)
	url, has := "", false
	if out, err := git(ctx, worktree, "remote", "get-url", "origin"); err == nil {
		url, has = strings.TrimRight(string(out), "\n"), true
	}
	if c.Dir != "" && files != nil {
		c.save(originEntry{
			Version: originCacheVersion, Worktree: worktree, Env: c.envDigest(),
			URL: url, HasURL: has, Files: files,
		})
	}
	return url, has
}

func (c OriginCache) save(e originEntry) {
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	// A cache that cannot be written costs the next run a git process,
	// nothing else; the hook has no one to tell.
	if os.MkdirAll(c.Dir, 0o700) == nil {
		_ = store.WriteFileAtomic(c.path(e.Worktree), data, 0o600)
	}
}

// configFiles lists the identity of every file whose change could change
// git's answer: the files git read (as `git config --list --show-origin`
// reports them, includes followed), every include target named even when
// it does not exist yet, the standard locations that do not exist yet, and
// HEAD when a conditional include depends on the branch. nil means the
// answer must not be cached.
func (c OriginCache) configFiles(ctx context.Context, worktree, common string, git GitRunner) []fileID {
	if c.Dir == "" {
		return nil
	}
	out, err := git(ctx, worktree, "config", "--list", "--show-origin", "-z")
	if err != nil {
		return nil
	}
	paths, ok := configOrigins(out, worktree, c.home())
	if !ok {
		return nil
	}
	gitDir, _, err := dotGit(worktree)
	if err != nil {
		return nil
	}
	paths = append(paths, filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"),
		filepath.Join(gitDir, "HEAD"), "/etc/gitconfig")
	paths = append(paths, c.globalConfigs()...)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	files := make([]fileID, 0, len(paths))
	for _, p := range paths {
		files = append(files, identify(p))
	}
	return files
}

// env returns the value of name in the environment git runs with.
func (c OriginCache) env(name string) string {
	for _, kv := range slices.Backward(c.Env) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

func (c OriginCache) home() string { return c.env("HOME") }

// globalConfigs are the per-user files git reads, existing or not.
func (c OriginCache) globalConfigs() []string {
	home, xdg := c.home(), c.env("XDG_CONFIG_HOME")
	var out []string
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	return out
}

// configOrigins parses `git config --list --show-origin -z` (origin NUL
// key LF value NUL, repeated): the files entries came from and the targets
// of include.path / includeIf.*.path, resolved as git resolves them. ok is
// false when an entry came from somewhere that is not a file (a blob) or
// an include path cannot be resolved without git.
func configOrigins(out []byte, worktree, home string) (paths []string, ok bool) {
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		origin, entry := string(fields[i]), string(fields[i+1])
		var file string
		switch {
		case strings.HasPrefix(origin, "file:"):
			file = strings.TrimPrefix(origin, "file:")
			if !filepath.IsAbs(file) {
				file = filepath.Join(worktree, file)
			}
			paths = append(paths, file)
		case origin == "command line:":
		default:
			return nil, false
		}
		key, value, _ := strings.Cut(entry, "\n")
		if !isIncludeKey(key) {
			continue
		}
		target, ok := includeTarget(value, file, home)
		if !ok {
			return nil, false
		}
		paths = append(paths, target)
	}
	return paths, true
}

func isIncludeKey(key string) bool {
	return key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
}

// includeTarget resolves an include path as git does: ~/ is the home
// directory, a relative path is relative to the including file's directory.
func includeTarget(value, from, home string) (string, bool) {
	switch {
	case strings.HasPrefix(value, "~"):
		if !strings.HasPrefix(value, "~/") || home == "" {
			return "", false // ~user, or no home: ask git every time
		}
		return filepath.Join(home, value[2:]), true
	case filepath.IsAbs(value):
		return value, true
	case from == "":
		return "", false // relative include given on the command line
	default:
		return filepath.Join(filepath.Dir(from), value), true
	}
}
