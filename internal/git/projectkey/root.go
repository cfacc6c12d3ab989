package projectkey

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// ErrNotRepo reports that a directory is not inside a git work tree: it does
// not exist, is not a directory, has no enclosing repository, or lies inside a
// bare repository or a .git directory. Test for it with errors.Is.
var ErrNotRepo = errors.New("not inside a git work tree")

// maxGitFileSize bounds how much of a `.git` file or `commondir` file is read;
// real ones hold one path, so anything larger is not a git file.
const maxGitFileSize = 64 << 10

// FindWorktreeRoot returns the physical (symlink-resolved) top level of the
// git work tree containing dir, the same directory `git rev-parse
// --show-toplevel` prints, without starting a process. The Stop hook calls it
// on its cheapest path, before it knows whether it is enabled, so it must not
// cost a git subprocess.
//
// Discovery follows git's own walk: from the physical dir upwards, the first
// `.git` entry that is a valid git directory, or a regular file holding
// `gitdir: <path>` (linked worktrees, submodules), marks the top level. An
// invalid `.git` file stops the walk with ErrNotRepo, as git refuses it too;
// reaching a directory that is itself a git directory (a bare repository, or
// somewhere inside `.git`) also yields ErrNotRepo. GIT_DIR, GIT_WORK_TREE,
// GIT_CEILING_DIRECTORIES, core.worktree, safe.directory and filesystem
// boundaries are not consulted; ExecGit strips the repository-selecting
// variables so git subprocesses see the same repository.
func FindWorktreeRoot(dir string) (string, error) {
	start, err := physicalDir(dir)
	if err != nil {
		return "", err
	}
	for d := start; ; {
		_, found, err := dotGit(d)
		if err != nil {
			return "", err
		}
		if found {
			return d, nil
		}
		if isGitDir(d) {
			return "", fmt.Errorf("%q is inside a git directory or bare repository: %w", dir, ErrNotRepo)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no repository above %q: %w", dir, ErrNotRepo)
		}
		d = parent
	}
}

// CommonDir returns the physical path of the repository's common git
// directory (where objects, refs and config live) for the work tree whose top
// level is worktreeRoot, the directory `git rev-parse --git-common-dir` names.
// For a `.git` directory that is the directory itself; for a `.git` file it is
// the target's `commondir` when present (linked worktrees), else the target
// (submodules).
func CommonDir(worktreeRoot string) (string, error) {
	gitDir, found, err := dotGit(worktreeRoot)
	if err != nil {
		return "", err
	}
	if !found {
		return "", fmt.Errorf("no valid .git in %q: %w", worktreeRoot, ErrNotRepo)
	}
	common, err := filepath.EvalSymlinks(commonOf(gitDir))
	if err != nil {
		return "", fmt.Errorf("resolve common dir of %q: %w", worktreeRoot, err)
	}
	return common, nil
}

// physicalDir makes dir absolute and resolves every symlink in it, because
// git reports physical paths and the walk must climb the physical parents.
func physicalDir(dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("empty directory: %w", ErrNotRepo)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("absolute path of %q: %w: %w", dir, ErrNotRepo, err)
	}
	phys, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w: %w", dir, ErrNotRepo, err)
	}
	fi, err := os.Stat(phys)
	if err != nil {
		return "", fmt.Errorf("stat %q: %w: %w", dir, ErrNotRepo, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%q is not a directory: %w", dir, ErrNotRepo)
	}
	return phys, nil
}

// dotGit inspects d/.git. It reports the git directory it designates and
// whether it marks a work tree. A `.git` directory that is not a valid git
// directory, or a `.git` of another file type, is skipped as git skips it; a
// malformed `.git` file is an error because git refuses to go on past it.
func dotGit(d string) (gitDir string, found bool, err error) {
	p := filepath.Join(d, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", false, nil
	}
	switch {
	case fi.IsDir():
		if isGitDir(p) {
			return p, true, nil
		}
		return "", false, nil
	case fi.Mode().IsRegular():
		target, err := readGitFile(p)
		if err != nil {
			return "", false, err
		}
		return target, true, nil
	default:
		return "", false, nil
	}
}

// readGitFile parses a `gitdir: <path>` file the way git does: trailing CR
// and LF are dropped, a relative path is relative to the file's directory, and
// the target must be a valid git directory.
func readGitFile(p string) (string, error) {
	content, err := readSmall(p)
	if err != nil {
		return "", fmt.Errorf("read %q: %w: %w", p, ErrNotRepo, err)
	}
	content = bytes.TrimRight(content, "\r\n")
	rest, ok := bytes.CutPrefix(content, []byte("gitdir: "))
	if !ok || len(rest) == 0 {
		return "", fmt.Errorf("invalid gitfile format %q: %w", p, ErrNotRepo)
	}
	target := string(rest)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	if !isGitDir(target) {
		return "", fmt.Errorf("gitfile %q points at %q, not a git directory: %w", p, target, ErrNotRepo)
	}
	return target, nil
}

// commonOf applies a git directory's `commondir` file, if any; a relative
// value is relative to the git directory.
func commonOf(gitDir string) string {
	content, err := readSmall(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := string(bytes.TrimRight(content, "\r\n"))
	if c == "" {
		return gitDir
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return c
}

// isGitDir mirrors git's is_git_directory: a HEAD that looks like a ref or an
// object id, plus objects/ and refs/ in the common directory. It is what lets
// the walk tell a real `.git` from a stray directory of that name, and notice
// that it started inside a git directory.
func isGitDir(dir string) bool {
	if !validHead(filepath.Join(dir, "HEAD")) {
		return false
	}
	common := commonOf(dir)
	if fi, err := os.Stat(filepath.Join(common, "objects")); err != nil || !fi.IsDir() {
		return false
	}
	// refs may be a directory (files backend) or exist only as a placeholder
	// (reftable); its presence is what git checks.
	if _, err := os.Stat(filepath.Join(common, "refs")); err != nil {
		return false
	}
	return true
}

// validHead accepts a symbolic-link HEAD, a `ref: refs/…` HEAD, or a detached
// HEAD holding a SHA-1 or SHA-256 object id.
func validHead(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(p)
		return err == nil && len(target) > 5 && bytes.HasPrefix([]byte(target), []byte("refs/"))
	}
	if !fi.Mode().IsRegular() {
		return false
	}
	content, err := readSmall(p)
	if err != nil {
		return false
	}
	if rest, ok := bytes.CutPrefix(content, []byte("ref:")); ok {
		return bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte("refs/"))
	}
	id := bytes.TrimRight(content, "\r\n")
	if len(id) != 40 && len(id) != 64 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// readSmall reads at most maxGitFileSize bytes; a larger file is rejected
// rather than truncated, because truncation could forge a valid-looking path.
func readSmall(p string) ([]byte, error) {
	b, err := store.ReadRegular(p, maxGitFileSize)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p, err)
	}
	return b, nil
}

// NotRepoDetail is what an ErrNotRepo error says beyond "not inside a git
// work tree", as ": <detail>" ("" when nothing more: no repository above
// the directory), so that a message that already says the directory is not
// in a repository does not say it twice (issue 34).
func NotRepoDetail(err error) string {
	if err == nil {
		return ""
	}
	msg := strings.Replace(err.Error(), ": "+ErrNotRepo.Error(), "", 1)
	if msg == ErrNotRepo.Error() || strings.HasPrefix(msg, "no repository above ") {
		return ""
	}
	return ": " + msg
}
