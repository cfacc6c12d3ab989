// Package projectkey locates a directory's git work tree and main
// repository and derives the project key that names its storage (spec §9).
package projectkey

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
)

// keyHexLen is the number of hex characters of the SHA-256 kept in a key
// (spec §9.3); sibling plugins derive the same 12, so it must not change.
const keyHexLen = 12

// Repo describes where a directory sits in git terms.
type Repo struct {
	// WorktreeRoot is the physical top level of the work tree containing the
	// directory; config layers, diffs and fingerprints use it (spec §9.2).
	WorktreeRoot string
	// MainRoot is the physical top level of the main repository: linked
	// worktrees map to their main work tree, submodules to themselves.
	MainRoot string
	// RemoteURL is the `origin` URL exactly as git prints it, or "".
	RemoteURL string
	// Key is the 12-hex project key of spec §9.3; never empty for a resolved Repo.
	Key string
}

// GitRunner runs git with args in dir and returns its stdout. Tests swap in
// fakes; production code uses ExecGit.
type GitRunner func(ctx context.Context, dir string, args ...string) (stdout []byte, err error)

// Resolve finds the work tree, main root, origin URL and key for dir. The
// roots come from the pure-Go walk; git runs once, for `remote get-url
// origin`, because the URL must be exactly what git prints (insteadOf rules,
// includes) for keys to match tribunal 1.2.7 and sibling plugins (spec §9.1). A
// failing remote lookup means "no remote". dir outside a work tree yields an
// error wrapping ErrNotRepo.
func Resolve(ctx context.Context, dir string, git GitRunner) (Repo, error) {
	return ResolveCached(ctx, dir, git, OriginCache{})
}

// ResolveCached is Resolve with git's answer for the origin URL kept in
// cache between runs, for the hooks that resolve the key on every turn.
func ResolveCached(ctx context.Context, dir string, git GitRunner, cache OriginCache) (Repo, error) {
	wt, err := FindWorktreeRoot(dir)
	if err != nil {
		return Repo{}, err
	}
	common, err := CommonDir(wt)
	if err != nil {
		return Repo{}, err
	}
	r := Repo{WorktreeRoot: wt, MainRoot: MainRoot(wt, common)}
	// The work tree root, not dir, is where git runs: it is the repository the
	// walk chose, whatever dir looked like (relative, symlinked, …).
	r.RemoteURL, _ = cache.originURL(ctx, wt, common, git)
	r.Key = Key(r.RemoteURL, r.MainRoot)
	return r, nil
}

// MainRoot applies the Go rule of spec §9.2: the parent of the common git
// directory when that directory is named `.git` (a main work tree or one of
// its linked worktrees), otherwise the work tree itself. tribunal 1.2.7 took
// the parent unconditionally and so named `<super>/.git/modules` for a
// submodule (spec §A.17).
func MainRoot(worktreeRoot, commonDir string) string {
	if filepath.Base(commonDir) == ".git" {
		return filepath.Dir(commonDir)
	}
	return worktreeRoot
}

// Key derives the project key of spec §9.3 from the origin URL, falling back to
// the main root; with neither it is "".
func Key(remoteURL, mainRoot string) string {
	var src string
	switch {
	case remoteURL != "":
		src = "remote:" + remoteURL
	case mainRoot != "":
		src = "root:" + mainRoot
	default:
		return ""
	}
	sum := sha256.Sum256([]byte(src))
	return hex.EncodeToString(sum[:])[:keyHexLen]
}
