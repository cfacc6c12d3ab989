package gitstate

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/git/gitindex"
)

// errUnsupported marks an index, repository or tree the fast path does not
// read; the caller runs git instead.
var errUnsupported = errors.New("not provable without git")

// ProvenCleanMaxEntries bounds the index ProvenClean reads: above it, the
// stat calls and the walk cost what git's own do, and a tree that turns
// out dirty would pay both, so the caller asks git at once.
const ProvenCleanMaxEntries = 4096

// ProvenClean reports whether the work tree at root is, as `git status`
// (Status's arguments) would report it, clean: nothing staged, no tracked
// file changed, no untracked file that is not ignored — without starting
// git, whose start is most of what the Stop hook costs on a small
// repository. It reads the index (git's stat data for each tracked file,
// and the cache-tree's root), HEAD's tree, the ignore files and the
// directories holding tracked files, and says true only when each is of a
// shape it reads exactly as git does; false means "not proven" (dirty, or
// anything it does not read: a linked worktree, an index over
// ProvenCleanMaxEntries or with intent-to-add, skip-worktree or unmerged
// entries, a racily clean entry, a submodule, a nested repository, a
// deltified HEAD commit, configuration or ignore rules beyond the plain
// ones), and the caller runs Status. getenv locates the global git
// configuration and excludes file (HOME, XDG_CONFIG_HOME).
func ProvenClean(root string, getenv func(string) string) bool {
	return provenClean(root, getenv) == nil
}

// provenClean is ProvenClean with the reason: nil when proven clean.
func provenClean(root string, getenv func(string) string) error {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Lstat(gitDir); err != nil || !fi.IsDir() {
		return errUnsupported
	}
	global, err := plainConfig(gitDir, getenv)
	if err != nil {
		return err
	}
	idxInfo, err := os.Stat(filepath.Join(gitDir, "index"))
	if err != nil {
		return errUnsupported
	}
	// Any error of the reader, refusal or not, leaves the tree unproven:
	// git decides.
	idx, err := gitindex.Read(filepath.Join(gitDir, "index"), ProvenCleanMaxEntries)
	if err != nil {
		return errUnsupported
	}
	if idx.RootTree == "" {
		return errUnsupported
	}
	if tree, err := headTree(gitDir); err != nil || tree != idx.RootTree {
		return errUnsupported
	}
	w := &walker{root: root, tracked: make(map[string]bool, len(idx.Entries)), dirs: map[string]bool{"": true}}
	indexMtime := uint32(idxInfo.ModTime().Unix())
	for _, e := range idx.Entries {
		if e.Stage != 0 || e.AssumeValid || e.MtimeS >= indexMtime {
			// Unmerged; assumed unchanged; racily clean (git would read
			// the content again): git decides.
			return errUnsupported
		}
		if !statMatches(filepath.Join(root, filepath.FromSlash(e.Path)), e) {
			return errUnsupported
		}
		w.tracked[e.Path] = true
		for d := path.Dir(e.Path); d != "." && !w.dirs[d]; d = path.Dir(d) {
			w.dirs[d] = true
		}
	}
	var top []ignorePattern
	for _, f := range []string{filepath.Join(gitDir, "info", "exclude"), global} {
		p, err := ignoreFile(f, "")
		if err != nil {
			return err
		}
		top = append(top, p...)
	}
	return w.dir("", top, false)
}

// plainConfig refuses configuration that changes what status reports
// beyond what ProvenClean reads: the repository's and the global and
// system files are scanned for the keys that matter (include and
// includeIf, core.excludesFile, core.ignoreCase, core.worktree,
// core.bare, sparse checkout, split index, the object format, the ref
// storage), and so is the environment's configuration. It returns the
// global excludes file git reads by default.
func plainConfig(gitDir string, getenv func(string) string) (string, error) {
	for _, v := range []string{"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"} {
		if getenv(v) != "" {
			return "", errUnsupported
		}
	}
	home := getenv("HOME")
	if home == "" {
		return "", errUnsupported
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	for _, f := range []string{filepath.Join(gitDir, "config"), "/etc/gitconfig", filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")} {
		data, err := readSmallFile(f, 64<<10)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil || !plainConfigText(data) {
			return "", errUnsupported
		}
	}
	return filepath.Join(xdg, "git", "ignore"), nil
}

// refusedConfig are the lower-case fragments of a config file whose
// presence anywhere (a section, a key, even a value) refuses the proof: an
// over-approximation, which only ever sends the hook to git.
var refusedConfig = []string{"include", "excludesfile", "ignorecase", "worktree", "sparse", "split",
	"objectformat", "refstorage", "precompose"}

func plainConfigText(data []byte) bool {
	lower := bytes.ToLower(data)
	for _, s := range refusedConfig {
		if bytes.Contains(lower, []byte(s)) {
			return false
		}
	}
	for _, line := range bytes.Split(lower, []byte{'\n'}) {
		kv := strings.Join(strings.Fields(string(line)), "")
		if kv == "bare" || strings.HasPrefix(kv, "bare=") && kv != "bare=false" {
			return false
		}
	}
	return true
}

// ignoreFile reads the patterns of one ignore file, none when it does
// not exist.
func ignoreFile(name, base string) ([]ignorePattern, error) {
	data, err := readSmallFile(name, 1<<20)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errUnsupported
	}
	return parseIgnore(data, base)
}

// walker looks for anything untracked and not ignored below root.
type walker struct {
	root    string
	tracked map[string]bool // tracked files
	dirs    map[string]bool // directories holding tracked files
}

// dir walks the directory rel (slash-separated, "" for the root) with the
// patterns of its parents; ignored says rel itself is ignored.
func (w *walker) dir(rel string, patterns []ignorePattern, ignored bool) error {
	// O_DIRECTORY|O_NONBLOCK: a named pipe where a directory was must be
	// refused, not waited on.
	fh, err := os.OpenFile(filepath.Join(w.root, filepath.FromSlash(rel)), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return errUnsupported
	}
	entries, err := fh.ReadDir(-1)
	fh.Close()
	if err != nil {
		return errUnsupported
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" {
			if !e.Type().IsRegular() {
				return errUnsupported // git does not follow a symlinked .gitignore
			}
			more, err := ignoreFile(filepath.Join(w.root, filepath.FromSlash(rel), ".gitignore"), rel)
			if err != nil {
				return err
			}
			patterns = append(patterns[:len(patterns):len(patterns)], more...)
		}
	}
	for _, e := range entries {
		if err := w.entry(rel, e, patterns, ignored); err != nil {
			return err
		}
	}
	return nil
}

// entry checks one directory entry: tracked (its stat data was compared
// already), a directory to walk, ignored, or untracked (not clean).
func (w *walker) entry(parent string, e fs.DirEntry, patterns []ignorePattern, ignored bool) error {
	name := e.Name()
	rel := path.Join(parent, name)
	if name == ".git" {
		if parent == "" {
			return nil
		}
		return errUnsupported // a nested repository or submodule: git decides
	}
	if w.tracked[rel] {
		return nil
	}
	isDir := e.IsDir()
	if w.dirs[rel] && !isDir {
		// Tracked files lie below a path that is no longer a directory
		// (a symlink to one, say): their stat data was read through it,
		// and git reports them as gone.
		return errUnsupported
	}
	ign := ignored || ignoredBy(patterns, rel, name, isDir)
	switch {
	case isDir && (w.dirs[rel] || !ign):
		// Tracked files inside, or an untracked directory whose files
		// each count (git lists them one by one under -uall).
		return w.dir(rel, patterns, ign)
	case ign:
		return nil
	}
	return errUnsupported // untracked: the tree is dirty, and git says how
}
