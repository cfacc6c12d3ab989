package gitstate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// fingerprintVersion opens every fingerprint; bump it whenever the recipe
// below changes so stop files written by an older binary never match.
const fingerprintVersion = "tribunal-fp-v2"

// untrackedHashCap is how many bytes of one work-tree file are hashed. It
// bounds the hook's work when a turn drops a large artefact into the tree;
// past the cap the file's size and modification time stand in for the rest.
const untrackedHashCap = 8 << 20

// Fingerprint condenses the state of a work tree, plus caller-supplied extra
// blobs, into a SHA-256 hex string (spec §A.16; ADR-009). It covers the tree
// only: HEAD, the staged and the unstaged side of every changed tracked
// path, and every untracked, non-ignored path with its content. It is stable
// while none of these changes and differs when HEAD moves, a path is staged
// or unstaged, a changed file's content or mode changes, or an untracked
// file appears, vanishes or changes content or executable bit. st must come
// from Status on the same root; what a turn said is not part of it (callers
// pass such things as extra only when they mean to).
//
// Most of the work is already done by Status: its records carry each
// changed path's HEAD and index modes and object ids, which pin the staged
// side. The unstaged side is the file as it is now, hashed here like an
// untracked one, so no diff has to be computed. Only a changed submodule
// costs a git call: `git diff-files -p --no-ext-diff --no-color -- <paths>`
// reports the commit checked out in it.
//
// Framing: the hash input is a sequence of fields, each an 8-byte big-endian
// length followed by that many bytes, in this order:
//
//	"tribunal-fp-v2"
//	st.Head
//	"changed", decimal count, then per path in byte order:
//	  XY, Detail, OrigPath, path, digest of the work-tree file
//	"submodules", output of the diff-files call above ("" when none changed)
//	"untracked", decimal count, then per path in byte order: path, digest
//	"extra", decimal count, then each blob
//
// A path's digest is one of (hex = lowercase SHA-256):
//
//	"file:" x "-" hex        regular file up to the cap; x is "x" if any execute bit is set, else "-"
//	"file:" x "-" size ":" mtime-ns ":" hex   larger file; hex covers the first untrackedHashCap bytes
//	"symlink:" target        the link itself, never followed
//	"dir"                    a directory: a submodule or nested repository
//	"special:" mode          fifo, socket or device; never opened
//	"gone"                   absent (deleted, or vanished since Status)
//	"unreadable"             could not be read
//
// Ignored files never contribute. A tracked file whose stat data changed but
// whose content did not is not listed by Status and so changes nothing.
func Fingerprint(ctx context.Context, git projectkey.GitRunner, root string, st State, extra ...[]byte) (string, error) {
	h := sha256.New()
	writeField(h, []byte(fingerprintVersion))
	writeField(h, []byte(st.Head))

	changed := slices.Clone(st.Changed)
	slices.SortFunc(changed, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	writeField(h, []byte("changed"))
	writeField(h, []byte(strconv.Itoa(len(changed))))
	var submodules []string
	for _, c := range changed {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("fingerprint %q: %w", root, err)
		}
		writeField(h, []byte(c.XY))
		writeField(h, []byte(c.Detail))
		writeField(h, []byte(c.OrigPath))
		writeField(h, []byte(c.Path))
		writeField(h, []byte(pathDigest(filepath.Join(root, filepath.FromSlash(c.Path)))))
		if strings.HasPrefix(c.Detail, "S") {
			submodules = append(submodules, c.Path)
		}
	}
	var subOut []byte
	if len(submodules) > 0 {
		args := append([]string{"diff-files", "-p", "--no-ext-diff", "--no-textconv", "--no-color", "--"}, submodules...)
		out, err := git(ctx, root, args...)
		if err != nil {
			return "", fmt.Errorf("fingerprint %q: %w", root, err)
		}
		subOut = out
	}
	writeField(h, []byte("submodules"))
	writeField(h, subOut)

	paths := slices.Clone(st.Untracked)
	slices.Sort(paths)
	writeField(h, []byte("untracked"))
	writeField(h, []byte(strconv.Itoa(len(paths))))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("fingerprint %q: %w", root, err)
		}
		writeField(h, []byte(p))
		writeField(h, []byte(pathDigest(filepath.Join(root, filepath.FromSlash(p)))))
	}

	writeField(h, []byte("extra"))
	writeField(h, []byte(strconv.Itoa(len(extra))))
	for _, b := range extra {
		writeField(h, b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// diffCmd builds `<plumbing> <flags> <rev> --`: the revision sits after the
// flags and before "--" so a file named HEAD cannot make it ambiguous.
func diffCmd(plumbing string, flags []string, rev ...string) []string {
	args := append([]string{plumbing}, flags...)
	args = append(args, rev...)
	return append(args, "--")
}

// writeField appends one length-prefixed field to the hash.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// pathDigest describes one work-tree path for the fingerprint. It never
// follows a symlink and never opens anything but a regular file, so a fifo
// left in the tree cannot block the hook.
func pathDigest(path string) string {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "gone"
	}
	if err != nil {
		return "unreadable"
	}
	switch mode := fi.Mode(); {
	case mode&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		if err != nil {
			return "unreadable"
		}
		return "symlink:" + target
	case mode.IsDir():
		return "dir"
	case !mode.IsRegular():
		return "special:" + mode.Type().String()
	}
	return hashRegular(path, fi)
}

// hashRegular stream-hashes up to untrackedHashCap bytes of a regular file.
func hashRegular(path string, lstat fs.FileInfo) string {
	// Non-blocking: the path may have become a FIFO since the Lstat.
	f, err := store.OpenRegular(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "gone"
		}
		return "unreadable"
	}
	defer f.Close()
	// The path may have been swapped between Lstat and Open; only hash the
	// file that was inspected.
	if fi, err := f.Stat(); err != nil || !os.SameFile(fi, lstat) {
		return "unreadable"
	}
	exec := "-"
	if lstat.Mode().Perm()&0o111 != 0 {
		exec = "x"
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, untrackedHashCap))
	if err != nil {
		return "unreadable"
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if n < untrackedHashCap || lstat.Size() <= untrackedHashCap {
		return "file:" + exec + "-" + sum
	}
	return fmt.Sprintf("file:%s-%d:%d:%s", exec, lstat.Size(), lstat.ModTime().UnixNano(), sum)
}
