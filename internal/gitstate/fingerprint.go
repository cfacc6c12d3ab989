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

	"github.com/tribunal-cc/tribunal/internal/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// fingerprintVersion opens every fingerprint; bump it whenever the recipe
// below changes so stop files written by an older binary never match.
const fingerprintVersion = "tribunal-fp-v1"

// untrackedHashCap is how many bytes of one untracked file are hashed. It
// bounds the hook's work when a turn drops a large artefact into the tree;
// past the cap the file's size and modification time stand in for the rest.
const untrackedHashCap = 8 << 20

// diffFlags make `git diff` output independent of external diff drivers,
// textconv filters and colour settings, and complete for binary files.
var diffFlags = []string{"--binary", "--no-ext-diff", "--no-textconv", "--no-color"}

// Fingerprint condenses a work tree's changes, plus caller-supplied extra
// blobs, into a SHA-256 hex string (§11.16). It is stable while nothing
// changes and differs whenever HEAD moves, the work tree's diff against HEAD
// changes (staged and unstaged edits alike), an untracked file appears,
// vanishes or changes content or executable bit, or an extra blob differs. st must come from
// Status on the same root.
//
// Framing: the hash input is a sequence of fields, each an 8-byte big-endian
// length followed by that many bytes, in this order:
//
//	"tribunal-fp-v1"
//	st.Head
//	"diff HEAD", output of `git diff --binary --no-ext-diff --no-textconv --no-color HEAD --`
//	  or, on an unborn branch (no HEAD to diff against):
//	"diff --cached", output of `git diff --cached <same flags> --`,
//	"diff", output of `git diff <same flags> --`
//	"untracked", decimal count, then per path in byte order: path, digest
//	"extra", decimal count, then each blob
//
// An untracked path's digest is one of (hex = lowercase SHA-256):
//
//	"file:" x "-" hex        regular file up to the cap; x is "x" if any execute bit is set, else "-"
//	"file:" x "-" size ":" mtime-ns ":" hex   larger file; hex covers the first untrackedHashCap bytes
//	"symlink:" target        the link itself, never followed
//	"dir"                    a nested repository, listed by git as "dir/"
//	"special:" mode          fifo, socket or device; never opened
//	"gone"                   vanished since Status
//	"unreadable"             could not be read
//
// Mode changes of tracked files already appear in the diff. Ignored files
// never contribute. Once a commit exists, the diff compares the work tree with
// HEAD, so the index counts only through the work tree: `git add` alone leaves
// the fingerprint unchanged (and so does not buy another judge call), while a
// commit moves HEAD and changes it.
func Fingerprint(ctx context.Context, git projectkey.GitRunner, root string, st State, extra ...[]byte) (string, error) {
	h := sha256.New()
	writeField(h, []byte(fingerprintVersion))
	writeField(h, []byte(st.Head))

	if st.Head == InitialHead {
		for _, d := range []struct {
			label string
			args  []string
		}{
			{"diff --cached", diffCmd(append([]string{"--cached"}, diffFlags...))},
			{"diff", diffCmd(diffFlags)},
		} {
			out, err := git(ctx, root, d.args...)
			if err != nil {
				return "", fmt.Errorf("fingerprint %q: %w", root, err)
			}
			writeField(h, []byte(d.label))
			writeField(h, out)
		}
	} else {
		out, err := git(ctx, root, diffCmd(diffFlags, "HEAD")...)
		if err != nil {
			return "", fmt.Errorf("fingerprint %q: %w", root, err)
		}
		writeField(h, []byte("diff HEAD"))
		writeField(h, out)
	}

	paths := slices.Clone(st.Untracked)
	slices.Sort(paths)
	writeField(h, []byte("untracked"))
	writeField(h, []byte(strconv.Itoa(len(paths))))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("fingerprint %q: %w", root, err)
		}
		writeField(h, []byte(p))
		writeField(h, []byte(untrackedDigest(filepath.Join(root, filepath.FromSlash(p)))))
	}

	writeField(h, []byte("extra"))
	writeField(h, []byte(strconv.Itoa(len(extra))))
	for _, b := range extra {
		writeField(h, b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// diffCmd builds `diff <flags> <rev> --`: the revision sits after the flags
// and before "--" so a file named HEAD cannot make it ambiguous.
func diffCmd(flags []string, rev ...string) []string {
	args := append([]string{"diff"}, flags...)
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

// untrackedDigest describes one untracked path for the fingerprint. It never
// follows a symlink and never opens anything but a regular file, so a fifo
// left in the tree cannot block the hook.
func untrackedDigest(path string) string {
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
