package gitstate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// maxRefDepth bounds symbolic refs followed from HEAD, as git does (5).
const maxRefDepth = 5

// headTree is the tree of the commit HEAD points at, read from the git
// directory without git: HEAD, a loose or packed ref, and the commit (see
// CommitTree). Anything else (an unborn branch, a reftable) is
// errUnsupported.
func headTree(gitDir string) (string, error) {
	commit, err := resolveRef(gitDir, "HEAD")
	if err != nil {
		return "", err
	}
	return commitTree(gitDir, commit)
}

// CommitTree is the tree of commit (a full hex id), what `git rev-parse
// <commit>^{tree}` prints, read from the object store at commonDir (the
// repository's common git directory) without starting git: the commit as
// a loose object or a packed one, whole or a delta. ok is false when it
// cannot be read so (a missing object, alternates, another object
// format): the caller asks git.
func CommitTree(commonDir, commit string) (tree string, ok bool) {
	if !isHexID(commit) {
		return "", false
	}
	tree, err := commitTree(commonDir, commit)
	if err != nil {
		tree, err = wholeCommitTree(commonDir, commit)
	}
	return tree, err == nil
}

func commitTree(gitDir, commit string) (string, error) {
	r, err := openObject(gitDir, commit)
	if err != nil {
		return "", err
	}
	defer r.Close()
	br := bufio.NewReader(io.LimitReader(r, 4096))
	if r.kind == "" {
		// A loose object starts with its header, "commit <size>" NUL.
		header, err := br.ReadString(0)
		if err != nil || !strings.HasPrefix(header, "commit ") {
			return "", errUnsupported
		}
	} else if r.kind != "commit" {
		return "", errUnsupported
	}
	line, err := br.ReadString('\n')
	if err != nil {
		return "", errUnsupported
	}
	return treeLine(line)
}

// treeLine reads the tree id from a commit's first line.
func treeLine(line string) (string, error) {
	id, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "tree ")
	if !ok || !isHexID(id) {
		return "", errUnsupported
	}
	return id, nil
}

// resolveRef follows name (HEAD or a ref) to an object id through loose
// ref files and packed-refs.
func resolveRef(gitDir, name string) (string, error) {
	for depth := 0; depth <= maxRefDepth; depth++ {
		data, err := readSmallFile(filepath.Join(gitDir, filepath.FromSlash(name)), 4096)
		if err != nil {
			if name == "HEAD" || !os.IsNotExist(err) {
				return "", errUnsupported
			}
			return packedRef(gitDir, name)
		}
		s := strings.TrimRight(string(data), "\r\n")
		if target, ok := strings.CutPrefix(s, "ref: "); ok {
			if !strings.HasPrefix(target, "refs/") || strings.Contains(target, "..") {
				return "", errUnsupported
			}
			name = target
			continue
		}
		if !isHexID(s) {
			return "", errUnsupported
		}
		return s, nil
	}
	return "", errUnsupported
}

// packedRef looks name up in packed-refs ("<id> <name>" lines; "^" lines
// peel the tag above them).
func packedRef(gitDir, name string) (string, error) {
	data, err := readSmallFile(filepath.Join(gitDir, "packed-refs"), 64<<20)
	if err != nil {
		return "", errUnsupported
	}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		id, ref, ok := bytes.Cut(bytes.TrimRight(line, "\r"), []byte{' '})
		if ok && string(ref) == name && isHexID(string(id)) {
			return string(id), nil
		}
	}
	return "", errUnsupported
}

func isHexID(s string) bool {
	if len(s) != 40 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// readSmallFile reads at most max bytes of the regular file at path. Every
// file gitstate reads is opened through store.OpenRegular: a named pipe
// planted in a repository must not hang the Stop hook.
func readSmallFile(path string, max int64) ([]byte, error) {
	fh, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errUnsupported
	}
	return data, nil
}

// objectReader is an inflating reader of one object; kind is "" for a
// loose object (whose header is in the stream) or the packed object's
// type.
type objectReader struct {
	io.Reader
	kind    string
	closers []io.Closer
}

func (o *objectReader) Close() error {
	for _, c := range o.closers {
		c.Close()
	}
	return nil
}

// openObject opens id as a loose object, else from a pack.
func openObject(gitDir, id string) (*objectReader, error) {
	fh, err := store.OpenRegular(filepath.Join(gitDir, "objects", id[:2], id[2:]))
	if err != nil {
		return packedObject(gitDir, id)
	}
	z, err := zlib.NewReader(bufio.NewReader(fh))
	if err != nil {
		fh.Close()
		return nil, errUnsupported
	}
	return &objectReader{Reader: z, closers: []io.Closer{z, fh}}, nil
}
