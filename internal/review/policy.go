package review

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/gitstate"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
)

// PolicyPaths are the repository files that choose how tribunal judges:
// the settings layers 4–5 (rubric choice, trust, command judges,
// providers), the rubric overlays, the shared dismissals and the
// receipts' allowed signers. A change someone else wrote may not choose
// them for its own review (spec §2.2, §7.16).
var PolicyPaths = []string{
	".claude/settings.json",
	".claude/settings.local.json",
	".claude/tribunal.json",
	".claude/tribunal.toml",
	".tribunal/dismissed",
	".tribunal/allowed_signers",
}

// maxPolicyBytes bounds one policy file read from a commit, as the
// configuration reader bounds a settings file.
const maxPolicyBytes = 1 << 20

// Untrusted says whether the change is not the user's own work tree: a
// range's head or a --diff is written by someone else (a pull request, a
// contributor, a stranger), so nothing in it may choose the policy it is
// judged under. --staged and --worktree are the user's own.
func (c *Change) Untrusted() bool {
	return c != nil && (c.Kind == KindRange || c.Kind == KindDiff)
}

// SetLimits replaces the size bounds the change was resolved with: for an
// untrusted change, the base's (the policy the review reads), known only
// once the review is set up. Call it before CacheKey and Load.
func (c *Change) SetLimits(l worktree.Limits) { c.limits = l }

// Untrusted says, before the change is resolved, whether it will be
// (Change.Untrusted): a range (--base) or a --diff. The bounds a review
// applies while resolving it must not come from the tree it judges.
func (in Input) Untrusted() bool { return in.Base != "" || in.Diff != nil }

// PolicyEdits are the policy files among files (both sides of a rename),
// sorted: a change that edits them is judged under the base's copies,
// and every output says so. extra adds further policy files (the base
// rubric's schema files).
func PolicyEdits(files []unidiff.File, extra ...string) []string {
	policy := map[string]bool{}
	for _, p := range append(append([]string(nil), PolicyPaths...), extra...) {
		policy[p] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		for _, p := range []string{f.OldPath, f.NewPath} {
			if p != "" && policy[p] && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// PolicyTree is a private directory holding the policy files of one
// commit, read with git from the object store, laid out as in the
// repository: what configuration, rubric and dismissals read instead of
// the work tree when the change is untrusted. A file the commit does not
// have is absent here too: the head's copy is never a fallback.
type PolicyTree struct {
	// Dir is the directory; Commit the commit its files come from.
	Dir, Commit string
	// Fetched are the repository paths put in Dir, in order.
	Fetched []string
	// Warn receives one line per file refused (a symlink, too large).
	Warn func(string)
	git  projectkey.GitRunner
	root string
	// made says Dir exists: it is created with the first file written
	// (or the first Fetch), so that a base without policy files costs no
	// directory — a cached review's time is mostly system calls.
	made bool
}

// NewPolicyTree reads PolicyPaths of commit in the repository at root
// into a new directory under tmp ("" is the system's): from the object
// store when it can (gitstate.LookPaths, no process: a cached review's
// time is mostly process starts), else with one git child to list them
// and one per file present. Close removes it.
//
// Dir is named before it exists, with 128 random bits, and made
// (os.Mkdir, which fails on anything already there) with the first file:
// until then every reader finds no file in it, which is what the base
// has. Nobody can plant a directory at a name they cannot guess.
func NewPolicyTree(ctx context.Context, git projectkey.GitRunner, root, commit, tmp string, warn func(string)) (*PolicyTree, error) {
	if warn == nil {
		warn = func(string) {}
	}
	if tmp == "" {
		tmp = os.TempDir()
	}
	var random [16]byte
	if _, err := rand.Read(random[:]); err != nil {
		return nil, fmt.Errorf("a directory for the base's policy files: %w", err)
	}
	dir := filepath.Join(tmp, "tribunal-policy-"+shortID(commit)+"-"+hex.EncodeToString(random[:]))
	t := &PolicyTree{Dir: dir, Commit: commit, Warn: warn, git: git, root: root}
	if err := t.fetch(ctx, PolicyPaths...); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Fetch puts one more repository file of the commit in the tree (an
// evaluator's schema_file); a file the commit does not have stays absent.
func (t *PolicyTree) Fetch(ctx context.Context, rel string) error {
	clean := path.Clean(filepath.ToSlash(rel))
	if clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || path.IsAbs(clean) {
		return nil // not a repository path: the reader finds nothing there
	}
	for _, p := range t.Fetched {
		if p == clean {
			return nil
		}
	}
	// The schema's reader opens Dir itself: it must exist, file or not.
	if err := t.mkdir(); err != nil {
		return err
	}
	return t.fetch(ctx, clean)
}

// mkdir makes Dir, private, once; it fails if anything is there already.
func (t *PolicyTree) mkdir() error {
	if t.made {
		return nil
	}
	if err := os.Mkdir(t.Dir, 0o700); err != nil {
		return fmt.Errorf("a directory for the base's policy files: %w", err)
	}
	t.made = true
	return nil
}

// Close removes the directory, if it was made.
func (t *PolicyTree) Close() {
	if t != nil && t.made {
		_ = os.RemoveAll(t.Dir)
		t.made = false
	}
}

// fetch lists paths in the commit with their modes and sizes, then
// writes each regular blob within maxPolicyBytes into Dir. A symlink (or
// a submodule, or a directory) where a policy file belongs is refused:
// its target would be read from outside the commit.
func (t *PolicyTree) fetch(ctx context.Context, paths ...string) error {
	if files, ok := t.readObjects(paths); ok {
		return t.place(files)
	}
	args := append([]string{"ls-tree", "-z", "-l", "--full-tree", t.Commit, "--"}, paths...)
	out, err := t.git(ctx, t.root, args...)
	if err != nil {
		return fmt.Errorf("list the policy files of %s: %w", shortID(t.Commit), err)
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		mode, oid, size, name, ok := lsTreeEntry(string(rec))
		if !ok {
			continue
		}
		where := shortID(t.Commit) + ":" + name
		switch {
		case mode != "100644" && mode != "100755":
			t.Warn(fmt.Sprintf("%s is not a regular file (mode %s); the base's policy has no such file", where, mode))
			continue
		case size > maxPolicyBytes:
			t.Warn(fmt.Sprintf("%s is over %d KiB; the base's policy has no such file", where, maxPolicyBytes>>10))
			continue
		}
		data, err := t.git(ctx, t.root, "cat-file", "blob", oid)
		if err != nil {
			return fmt.Errorf("read %s: %w", where, err)
		}
		if err := t.write(name, data); err != nil {
			return err
		}
	}
	return nil
}

// policyFile is one path of the commit as fetch finds it: its content,
// or the line that refuses it.
type policyFile struct {
	name, refused string
	data          []byte
}

// readObjects is fetch without git: each path the commit has, in the
// order ls-tree lists them, read from the object store. false when
// anything is not readable so (or a path is a pathspec git would read
// otherwise): then nothing was written or said, and git is asked.
func (t *PolicyTree) readObjects(paths []string) ([]policyFile, bool) {
	for _, p := range paths {
		if strings.ContainsAny(p, "*?[\\") || strings.HasPrefix(p, ":") {
			return nil, false
		}
	}
	common, err := projectkey.CommonDir(t.root)
	if err != nil {
		return nil, false
	}
	found, ok := gitstate.LookPaths(common, t.Commit, paths)
	if !ok {
		return nil, false
	}
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names) // full paths sort in git's tree order
	var files []policyFile
	for _, name := range names {
		e := found[name]
		where := shortID(t.Commit) + ":" + name
		if e.Mode != "100644" && e.Mode != "100755" {
			files = append(files, policyFile{name: name, refused: fmt.Sprintf("%s is not a regular file (mode %s); the base's policy has no such file", where, e.Mode)})
			continue
		}
		data, tooLarge, ok := gitstate.ReadBlob(common, e.ID, maxPolicyBytes)
		switch {
		case !ok:
			return nil, false
		case tooLarge:
			files = append(files, policyFile{name: name, refused: fmt.Sprintf("%s is over %d KiB; the base's policy has no such file", where, maxPolicyBytes>>10)})
		default:
			files = append(files, policyFile{name: name, data: data})
		}
	}
	return files, true
}

// place writes the files readObjects read and says the refused ones.
func (t *PolicyTree) place(files []policyFile) error {
	for _, f := range files {
		if f.refused != "" {
			t.Warn(f.refused)
			continue
		}
		if err := t.write(f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// write puts data at the repository path name under Dir, private.
func (t *PolicyTree) write(name string, data []byte) error {
	if err := t.mkdir(); err != nil {
		return err
	}
	dst := filepath.Join(t.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("the base's policy files: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		return fmt.Errorf("the base's policy files: %w", err)
	}
	t.Fetched = append(t.Fetched, name)
	return nil
}

// lsTreeEntry reads one `ls-tree -l -z` record: "<mode> <type> <oid>
// <size>\t<path>".
func lsTreeEntry(rec string) (mode, oid string, size int64, name string, ok bool) {
	meta, name, found := strings.Cut(rec, "\t")
	f := strings.Fields(meta)
	if !found || len(f) != 4 || name == "" {
		return "", "", 0, "", false
	}
	size, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil {
		size = -1 // "-": not a blob; the mode refuses it
	}
	return f[0], f[2], size, name, true
}

func shortID(id string) string { return id[:min(len(id), 12)] }
