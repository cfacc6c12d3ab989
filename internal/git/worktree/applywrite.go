package worktree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// zeroID is git's name for "no object" in --raw output.
var zeroID = strings.Repeat("0", 40)

// checkoutBatch bounds the paths given to one checkout-index.
const checkoutBatch = 200

// blobFile is a binary (or over PatchFileBytes) regular file of the change,
// written from its blob instead of through a patch.
type blobFile struct {
	path     string
	old, new string // blob ids; zeroID when absent on that side
}

// write brings the user's working tree from userTree to result. Text
// files go through one patch and `git apply` (atomic, and it refuses a
// file that changed since userTree was taken). Binary files and files
// over PatchFileBytes are not encoded into that patch (a 100 MiB binary
// took git apply 444 MB and the base85 diff 17 s): each is checked
// against its blob in userTree first, then, once the patch applied,
// written by checkout-index from the scratch worktree's index (which
// streams the blob through the user's filters) or removed. The patch
// goes from git to a file, never through memory.
func (m *Manager) write(ctx context.Context, t *Task, scratch, userTree, result string, res ApplyResult) (ApplyResult, error) {
	blobs, err := m.blobFiles(ctx, t, userTree, result)
	if err != nil {
		return res, err
	}
	for _, b := range blobs {
		if reason := m.preimage(ctx, t, b); reason != "" {
			res.Conflicts = appendUnique(res.Conflicts, b.path+": "+reason)
		}
	}
	if len(res.Conflicts) > 0 {
		return res, nil
	}
	patchFile := filepath.Join(m.taskDir(t), t.ID+".patch")
	defer os.Remove(patchFile)
	args := append(append([]string{}, diffArgs...), "-p", "--binary", "--full-index", "--output="+patchFile, userTree, result, "--", ":/")
	for _, b := range blobs {
		args = append(args, ":(top,literal,exclude)"+b.path)
	}
	if _, err := m.git(ctx, t.UserRoot, args...); err != nil {
		return res, fmt.Errorf("diff for apply: %w", err)
	}
	if st, err := os.Stat(patchFile); err != nil {
		return res, fmt.Errorf("write the patch: %w", err)
	} else if st.Size() > 0 {
		// --check first: git apply is atomic on its own, but a refusal
		// found here is reported as a conflict rather than an error.
		for _, check := range []bool{true, false} {
			a := []string{"apply", "--whitespace=nowarn", patchFile}
			if check {
				a = []string{"apply", "--check", "--whitespace=nowarn", patchFile}
			}
			if _, err := m.gitPinned(ctx, t, t.UserRoot, a...); err != nil {
				res.Conflicts = []string{"git apply refuses the change: " + err.Error()}
				return res, nil
			}
		}
	}
	if err := m.writeBlobs(ctx, t, scratch, result, blobs); err != nil {
		return res, fmt.Errorf("the text files were applied, but not every binary file: %w", err)
	}
	res.Applied = true
	return res, nil
}

// blobFiles lists the regular files of the change that git's diff counts
// as binary, files over PatchFileBytes included.
func (m *Manager) blobFiles(ctx context.Context, t *Task, userTree, result string) ([]blobFile, error) {
	num, err := m.git(ctx, t.UserRoot, "-c", "core.bigFileThreshold="+strconv.Itoa(PatchFileBytes),
		"diff-tree", "-r", "--no-renames", "--numstat", "-z", "--no-ext-diff", "--no-textconv", userTree, result, "--")
	if err != nil {
		return nil, fmt.Errorf("count the change for apply: %w", err)
	}
	binary := map[string]bool{}
	for p, c := range parseNumstat(string(num)) {
		if c.Binary {
			binary[p] = true
		}
	}
	if len(binary) == 0 {
		return nil, nil
	}
	raw, err := m.git(ctx, t.UserRoot, "diff-tree", "-r", "--no-renames", "--raw", "-z", "--no-ext-diff", "--no-textconv", "--abbrev=40", userTree, result, "--")
	if err != nil {
		return nil, fmt.Errorf("list the change for apply: %w", err)
	}
	fields := splitZ(raw)
	var out []blobFile
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		p := fields[i+1]
		if len(meta) != 5 || !binary[p] || !plainMode(meta[0]) || !plainMode(meta[1]) {
			continue
		}
		out = append(out, blobFile{path: p, old: meta[2], new: meta[3]})
	}
	return out, nil
}

// plainMode: a regular file, or nothing.
func plainMode(mode string) bool { return mode == "100644" || mode == "100755" || mode == "000000" }

// preimage says why b's file in the user's tree is no longer what userTree
// recorded ("" when it is): git apply's own check, for a file it does not
// see.
func (m *Manager) preimage(ctx context.Context, t *Task, b blobFile) string {
	full := filepath.Join(t.UserRoot, filepath.FromSlash(b.path))
	st, err := os.Lstat(full)
	switch {
	case b.old == zeroID && errors.Is(err, fs.ErrNotExist):
		return ""
	case b.old == zeroID:
		return "exists in your working tree now"
	case err != nil:
		return "missing from your working tree now"
	case !st.Mode().IsRegular():
		return "no longer a regular file in your working tree"
	}
	id, err := m.gitPinned(ctx, t, t.UserRoot, "hash-object", "--", b.path)
	if err != nil || strings.TrimSpace(string(id)) != b.old {
		return "changed in your working tree since the merge"
	}
	return ""
}

// writeBlobs writes the added and modified binary files from result's
// blobs (checkout-index from the scratch index, streaming and through the
// user's filters) and removes the deleted ones.
func (m *Manager) writeBlobs(ctx context.Context, t *Task, scratch, result string, blobs []blobFile) error {
	var paths []string
	var errs []error
	for _, b := range blobs {
		if b.new == zeroID {
			if err := os.Remove(filepath.Join(t.UserRoot, filepath.FromSlash(b.path))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		paths = append(paths, b.path)
	}
	if len(paths) > 0 {
		if _, err := m.gitPinned(ctx, t, scratch, "read-tree", result); err != nil {
			return errors.Join(append(errs, fmt.Errorf("read the merged tree: %w", err))...)
		}
	}
	for len(paths) > 0 {
		n := min(len(paths), checkoutBatch)
		args := append([]string{"--work-tree=" + t.UserRoot, "checkout-index", "--force", "--quiet", "--"}, paths[:n]...)
		if _, err := m.gitPinned(ctx, t, scratch, args...); err != nil {
			errs = append(errs, err)
		}
		paths = paths[n:]
	}
	return errors.Join(errs...)
}
