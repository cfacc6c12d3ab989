package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// diffArgs compare two trees with the plumbing diff-tree: it never reads
// or refreshes an index, runs no external diff or textconv program, and
// ignores the user's diff configuration; the a/ b/ prefixes `git apply`
// expects are given explicitly all the same.
var diffArgs = []string{"diff-tree", "-r", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/"}

// PatchFileBytes bounds what one file adds to a stored diff: a file whose
// old or new content is larger is named by git as "Binary files … differ"
// (git's core.bigFileThreshold), so that an actor that writes a
// multi-megabyte generated file or data dump does not put it, twice per
// iteration, into the task's records and the judges' input. Its line
// counts stay in the file list; the change itself is on the task's branch
// and is applied whole on accept (Apply makes its own full diff).
const PatchFileBytes = 2 << 20

// Diff returns the unified diff from one commit (or tree) to another, as
// text (binary files, and files over PatchFileBytes, are named, not
// encoded), and the files it touches.
func (m *Manager) Diff(ctx context.Context, dir, from, to string) (string, []records.FileChange, error) {
	args := append([]string{"-c", "core.bigFileThreshold=" + strconv.Itoa(PatchFileBytes)}, diffArgs...)
	args = append(args, "-p")
	patch, err := m.git(ctx, dir, append(args, from, to, "--")...)
	if err != nil {
		return "", nil, fmt.Errorf("diff %s..%s: %w", short(from), short(to), err)
	}
	files, err := m.Files(ctx, dir, from, to)
	return string(patch), files, err
}

// Files lists the files changed from one commit (or tree) to another,
// with mode changes and symbolic links' targets named.
func (m *Manager) Files(ctx context.Context, dir, from, to string) ([]records.FileChange, error) {
	raw, err := m.git(ctx, dir, "diff-tree", "-r", "-M", "--raw", "-z", "--no-ext-diff", "--no-textconv", "--abbrev=40", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("list the changed files: %w", err)
	}
	num, err := m.git(ctx, dir, "diff-tree", "-r", "-M", "--numstat", "-z", "--no-ext-diff", "--no-textconv", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("count the changed lines: %w", err)
	}
	files, blobs := parseRaw(string(raw))
	counts := parseNumstat(string(num))
	links := 0
	for i := range files {
		if c, ok := counts[files[i].Path]; ok {
			files[i].Added, files[i].Deleted, files[i].Binary = c.Added, c.Deleted, c.Binary
		}
		if blobs[i] == "" || links == maxLinkTargets {
			continue
		}
		links++
		if target, err := m.git(ctx, dir, "cat-file", "blob", blobs[i]); err == nil {
			files[i].Target = safeTarget(target)
			files[i].Outside = outsideTree(files[i].Path, files[i].Target)
		}
	}
	return files, nil
}

// symlinkMode is git's mode of a symbolic link; maxLinkTargets bounds the
// links whose targets Files reads.
const (
	symlinkMode    = "120000"
	maxLinkTargets = 100
)

// parseRaw reads `diff-tree --raw -z`: ":oldmode newmode oldsha newsha
// status" then one path (two for renames and copies), each NUL-terminated.
// It returns the files and, beside each, the new blob of a symbolic link
// ("" otherwise).
func parseRaw(s string) ([]records.FileChange, []string) {
	fields := strings.Split(strings.TrimSuffix(s, "\x00"), "\x00")
	var out []records.FileChange
	var blobs []string
	for i := 0; i+1 < len(fields); i++ {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 || meta[4] == "" {
			continue
		}
		f := records.FileChange{}
		oldMode, newMode, st := meta[0], meta[1], meta[4]
		switch st[0] {
		case 'A':
			f.Status = "added"
		case 'D':
			f.Status = "deleted"
		case 'T':
			f.Status = "type_changed"
		case 'R', 'C':
			f.Status = map[byte]string{'R': "renamed", 'C': "copied"}[st[0]]
			if i+2 >= len(fields) {
				return out, blobs
			}
			f.OldPath = fields[i+1]
			i++
		default:
			f.Status = "modified"
		}
		f.Path = fields[i+1]
		i++
		if oldMode != "000000" && newMode != "000000" && oldMode != newMode {
			f.OldMode, f.NewMode = oldMode, newMode
		}
		blob := ""
		if newMode == symlinkMode {
			blob = meta[3]
		}
		out = append(out, f)
		blobs = append(blobs, blob)
	}
	return out, blobs
}

// safeTarget is a link target as one printable line.
func safeTarget(b []byte) string {
	const max = 4096
	if len(b) > max {
		b = b[:max]
	}
	return strings.ToValidUTF8(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, string(b)), "?")
}

// outsideTree reports whether a link at p (slash-separated, relative to
// the work tree) with target leads out of the work tree: an absolute
// target, or a relative one that climbs above the root.
func outsideTree(p, target string) bool {
	if strings.HasPrefix(target, "/") {
		return true
	}
	joined := path.Clean(path.Join(path.Dir(p), target))
	return joined == ".." || strings.HasPrefix(joined, "../")
}

// parseNumstat reads `diff --numstat -z`: "added\tdeleted\tpath\0", or for
// a rename "added\tdeleted\t\0old\0new\0"; binary files count "-".
func parseNumstat(s string) map[string]records.FileChange {
	out := map[string]records.FileChange{}
	fields := strings.Split(s, "\x00")
	for i := 0; i < len(fields); i++ {
		parts := strings.SplitN(fields[i], "\t", 3)
		if len(parts) != 3 {
			continue
		}
		path := parts[2]
		if path == "" && i+2 < len(fields) {
			path = fields[i+2]
			i += 2
		}
		c := records.FileChange{Binary: parts[0] == "-"}
		c.Added, _ = strconv.Atoi(parts[0])
		c.Deleted, _ = strconv.Atoi(parts[1])
		out[path] = c
	}
	return out
}

// ApplyResult says what Apply did.
type ApplyResult struct {
	// Applied: the change is now in the user's working tree (uncommitted).
	Applied bool `json:"applied"`
	// NoChange: the task changed nothing relative to its snapshot, or the
	// user's tree already has exactly its result.
	NoChange bool `json:"no_change,omitempty"`
	// Conflicts names what stopped the change from applying cleanly;
	// nothing was written to the user's working tree.
	Conflicts []string             `json:"conflicts,omitempty"`
	Files     []records.FileChange `json:"files,omitempty"`
}

// Apply brings the task's change (its branch tip relative to the starting
// snapshot) into the user's working tree as uncommitted changes, leaving
// the index and branches alone. The user may have edited the tree since the
// task started: a three-way merge in object space (snapshot as base, the
// user's current tree, the task's tip) decides first, so a conflict leaves
// the working tree exactly as it was. Only then is the difference between
// the user's tree and the merge result applied, with `git apply`, which
// writes all files or none.
func (m *Manager) Apply(ctx context.Context, t *Task) (ApplyResult, error) {
	tip, err := m.gitLine(ctx, t.UserRoot, "rev-parse", "--verify", "--quiet", t.ref()+"^{commit}")
	if err != nil || tip == "" {
		return ApplyResult{}, fmt.Errorf("%s no longer exists", t.Branch)
	}
	snapTree, err := m.treeOf(ctx, t.UserRoot, t.Snapshot)
	if err != nil {
		return ApplyResult{}, err
	}
	tipTree, err := m.treeOf(ctx, t.UserRoot, tip)
	if err != nil {
		return ApplyResult{}, err
	}
	files, err := m.Files(ctx, t.UserRoot, t.Snapshot, tip)
	if err != nil {
		return ApplyResult{}, err
	}
	res := ApplyResult{Files: files}
	if snapTree == tipTree {
		res.NoChange = true
		return res, nil
	}
	userTree, scratch, done, err := m.userTree(ctx, t)
	if err != nil {
		return res, err
	}
	defer done()
	result := tipTree
	if userTree != snapTree {
		u, err := m.commit(ctx, t.UserRoot, userTree, t.Snapshot, "tribunal: the working tree of "+t.UserRoot+" at apply time")
		if err != nil {
			return res, err
		}
		out, err := m.gitPinned(ctx, t, t.UserRoot, "merge-tree", "--write-tree", "--name-only", "--no-messages", u, tip)
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		var exit *exec.ExitError
		switch {
		case err == nil && len(lines) > 0:
			result = strings.TrimSpace(lines[0])
		case errors.As(err, &exit) && exit.ExitCode() == 1 && len(lines) > 0:
			for _, l := range lines[1:] {
				if l == "" {
					break
				}
				res.Conflicts = appendUnique(res.Conflicts, l)
			}
			if len(res.Conflicts) == 0 {
				res.Conflicts = []string{"the merge with your current working tree conflicts"}
			}
			return res, nil
		default:
			return res, fmt.Errorf("merge the task's change with your working tree: %w", err)
		}
	}
	if result == userTree {
		res.NoChange = true
		return res, nil
	}
	return m.write(ctx, t, scratch, userTree, result, res)
}

// userTree snapshots the user's working tree as it is now, through a
// scratch worktree's index (never the user's own), and returns the tree
// and the scratch worktree, which done removes.
func (m *Manager) userTree(ctx context.Context, t *Task) (tree, scratch string, done func(), err error) {
	scratch = filepath.Join(m.taskDir(t), t.ID+".apply")
	os.RemoveAll(scratch)
	m.worktreeGit(ctx, t.UserRoot, "prune")
	if _, err := m.worktreeGit(ctx, t.UserRoot, "add", "--quiet", "--no-checkout", "--detach", scratch, t.Snapshot); err != nil {
		return "", "", nil, fmt.Errorf("prepare a scratch index: %w", err)
	}
	done = func() {
		wctx := context.WithoutCancel(ctx)
		if _, err := m.worktreeGit(wctx, t.UserRoot, "remove", "--force", "--force", scratch); err != nil {
			os.RemoveAll(scratch)
			m.worktreeGit(wctx, t.UserRoot, "prune")
		}
	}
	// The secret-looking and over-size untracked files are left out as
	// the snapshot left them out: the merge never sees them, the patch never touches them,
	// and no blob of theirs is written.
	tree, _, _, err = m.capture(ctx, scratch, t.UserRoot, t.Snapshot, t.pins)
	if err != nil {
		done()
		return "", "", nil, err
	}
	return tree, scratch, done, nil
}

func (m *Manager) treeOf(ctx context.Context, dir, commit string) (string, error) {
	tree, err := m.gitLine(ctx, dir, "rev-parse", "--verify", "--quiet", commit+"^{tree}")
	if err != nil || tree == "" {
		return "", fmt.Errorf("commit %s is missing from the repository", short(commit))
	}
	return tree, nil
}

// Changed reports whether the task's ref differs from its snapshot.
func (m *Manager) Changed(ctx context.Context, t *Task) bool {
	a, err1 := m.treeOf(ctx, t.UserRoot, t.Snapshot)
	b, err2 := m.treeOf(ctx, t.UserRoot, t.Head)
	return err1 == nil && err2 == nil && a != b
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// taskDir is the directory holding t's record (and its worktree).
func (m *Manager) taskDir(t *Task) string {
	if t.dir != "" {
		return t.dir
	}
	return m.Dir
}
