package gitstate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// Reading trees and blobs without git, for the few small files a cached
// review must read from a commit (its base's policy files): each git
// child costs a process start, which is most of a cached review's time.
// Only what can be read exactly is read — a loose object, or a packed
// one, whole or as a chain of deltas within its pack — and anything else
// (alternates, a missing object of a partial clone, SHA-256, a reftable,
// an object past the bounds) is errUnsupported: the caller asks git,
// which answers the same question the slow way.

// Object types in a pack (gitformat-pack).
const (
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// Bounds of what is read without git: an object (or delta base) above
// maxObjectRead, a chain deeper than maxDeltaDepth or inflating more than
// maxChainRead in all (a malformed pack's cycle of ref deltas, say) goes
// to git.
const (
	maxObjectRead = 8 << 20
	maxDeltaDepth = 64
	maxChainRead  = 16 << 20
)

// errTooLarge is an object whose size is known and over the caller's max.
var errTooLarge = errors.New("object over the size asked for")

// Entry is one path of a tree, as `git ls-tree` lists it: its mode
// ("100644", "100755", "120000", "040000", "160000") and object id.
type Entry struct{ Mode, ID string }

// LookPaths finds each of paths (slash-separated, taken literally) in
// commit's tree in the object store at commonDir: what `git ls-tree
// --full-tree <commit> -- <paths>` lists, without git. A path the commit
// does not have is absent from the map. ok is false when some object on
// the way cannot be read without git (see above): ask git.
func LookPaths(commonDir, commit string, paths []string) (map[string]Entry, bool) {
	if !isHexID(commit) {
		return nil, false
	}
	root, err := wholeCommitTree(commonDir, commit)
	if err != nil {
		return nil, false
	}
	trees := map[string][]byte{}
	found := map[string]Entry{}
	for _, p := range paths {
		e, ok, err := lookPath(commonDir, root, p, trees)
		if err != nil {
			return nil, false
		}
		if ok {
			found[p] = e
		}
	}
	return found, true
}

// wholeCommitTree is commit's tree, the commit read whole (a delta too).
func wholeCommitTree(commonDir, commit string) (string, error) {
	data, err := readObject(commonDir, commit, "commit", maxObjectRead)
	if err != nil {
		return "", errUnsupported
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return treeLine(line)
}

// lookPath walks p's directories from root, reading each tree once.
func lookPath(commonDir, root, p string, trees map[string][]byte) (Entry, bool, error) {
	parts := strings.Split(p, "/")
	id := root
	for i, name := range parts {
		data, ok := trees[id]
		if !ok {
			var err error
			if data, err = readObject(commonDir, id, "tree", maxObjectRead); err != nil {
				return Entry{}, false, err
			}
			trees[id] = data
		}
		e, ok, err := treeEntry(data, name)
		if err != nil || !ok {
			return Entry{}, false, err
		}
		if i == len(parts)-1 {
			return e, true, nil
		}
		if e.Mode != "040000" {
			return Entry{}, false, nil // a file where a directory would be: no such path
		}
		id = e.ID
	}
	return Entry{}, false, nil
}

// treeEntry finds name in a tree object: "<mode> <name>" NUL and a
// 20-byte id per entry. It reads the whole tree (a root of a large
// repository has hundreds of entries) but keeps only the one asked for.
// A malformed tree, or a mode git would not write, is errUnsupported.
func treeEntry(data []byte, name string) (Entry, bool, error) {
	var found Entry
	ok := false
	for len(data) > 0 {
		head, rest, cut := bytes.Cut(data, []byte{0})
		mode, n, cut2 := bytes.Cut(head, []byte{' '})
		if !cut || !cut2 || len(rest) < 20 || len(n) == 0 {
			return Entry{}, false, errUnsupported
		}
		m := string(mode)
		switch m {
		case "100644", "100755", "120000", "160000":
		case "40000":
			m = "040000"
		default:
			return Entry{}, false, errUnsupported
		}
		if !ok && string(n) == name {
			found, ok = Entry{Mode: m, ID: hex.EncodeToString(rest[:20])}, true
		}
		data = rest[20:]
	}
	return found, ok, nil
}

// ReadBlob is blob id's content when it is at most max bytes, read
// without git. tooLarge says the blob is over max (nothing read); ok is
// false when it cannot be read without git.
func ReadBlob(commonDir, id string, max int64) (data []byte, tooLarge, ok bool) {
	if !isHexID(id) {
		return nil, false, false
	}
	data, err := readObject(commonDir, id, "blob", max)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, true, true
	case err != nil:
		return nil, false, false
	}
	return data, false, true
}

// readObject reads object id, which must be of type kind, whole: loose,
// else from a pack.
func readObject(gitDir, id, kind string, max int64) ([]byte, error) {
	fh, err := store.OpenRegular(filepath.Join(gitDir, "objects", id[:2], id[2:]))
	if err != nil {
		return readPackedObject(gitDir, id, kind, max)
	}
	defer fh.Close()
	z, err := zlib.NewReader(bufio.NewReader(fh))
	if err != nil {
		return nil, errUnsupported
	}
	defer z.Close()
	br := bufio.NewReader(z)
	header, err := br.ReadString(0)
	t, size, ok := strings.Cut(strings.TrimSuffix(header, "\x00"), " ")
	n, perr := strconv.ParseInt(size, 10, 64)
	if err != nil || !ok || perr != nil || n < 0 || t != kind {
		return nil, errUnsupported
	}
	if n > max {
		return nil, errTooLarge
	}
	return readExactly(br, n)
}

// readPackedObject finds id in a pack and resolves it.
func readPackedObject(gitDir, id, kind string, max int64) ([]byte, error) {
	want, err := hex.DecodeString(id)
	if err != nil {
		return nil, errUnsupported
	}
	idxs, _ := filepath.Glob(filepath.Join(gitDir, "objects", "pack", "pack-*.idx"))
	sort.Strings(idxs)
	for _, idxPath := range idxs {
		off, found, err := packOffset(idxPath, want)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		p := &pack{path: idxPath[:len(idxPath)-len(".idx")] + ".pack", idx: idxPath, budget: maxChainRead}
		t, data, err := p.resolve(off, max, 0)
		if err != nil {
			return nil, err
		}
		if packTypeName(t) != kind {
			return nil, errUnsupported
		}
		return data, nil
	}
	return nil, errUnsupported
}

func packTypeName(t int) string {
	switch t {
	case packCommit:
		return "commit"
	case packTree:
		return "tree"
	case packBlob:
		return "blob"
	case packTag:
		return "tag"
	}
	return ""
}

// pack is one pack file and its index, read with ReadAt; budget is what
// one object's chain may still inflate.
type pack struct {
	path, idx string
	budget    int64
}

// inflate is inflateAt within the budget.
func (p *pack) inflate(fh io.ReaderAt, off, size int64) ([]byte, error) {
	if p.budget -= size; p.budget < 0 {
		return nil, errUnsupported
	}
	return inflateAt(fh, off, size)
}

// resolve reads the object at off, applying deltas: its base type and
// content, at most max bytes (a base within maxObjectRead).
func (p *pack) resolve(off, max int64, depth int) (int, []byte, error) {
	if depth > maxDeltaDepth {
		return 0, nil, errUnsupported
	}
	fh, err := store.OpenRegular(p.path)
	if err != nil {
		return 0, nil, errUnsupported
	}
	defer fh.Close()
	var hdr [32]byte
	n, _ := fh.ReadAt(hdr[:], off)
	t, size, used := packHeader(hdr[:n])
	if used == 0 {
		return 0, nil, errUnsupported
	}
	switch t {
	case packCommit, packTree, packBlob, packTag:
		if size > max {
			return 0, nil, errTooLarge
		}
		data, err := p.inflate(fh, off+int64(used), size)
		return t, data, err
	case packOfsDelta, packRefDelta:
		return p.resolveDelta(fh, off, used, hdr[used:n], t, size, max, depth)
	}
	return 0, nil, errUnsupported
}

// resolveDelta reads the delta at off (its header of hlen bytes already
// read, rest the bytes after it), resolves its base in this pack and
// applies it.
func (p *pack) resolveDelta(fh io.ReaderAt, off int64, hlen int, rest []byte, t int, size, max int64, depth int) (int, []byte, error) {
	var baseOff int64
	var used int
	if t == packOfsDelta {
		rel, k := ofsDeltaOffset(rest)
		if k == 0 || rel <= 0 || rel > off {
			return 0, nil, errUnsupported
		}
		baseOff, used = off-rel, k
	} else {
		if len(rest) < 20 {
			return 0, nil, errUnsupported
		}
		o, found, err := packOffset(p.idx, rest[:20])
		if err != nil || !found {
			return 0, nil, errUnsupported // a base outside this pack: git's
		}
		baseOff, used = o, 20
	}
	if size > maxObjectRead {
		return 0, nil, errUnsupported
	}
	delta, err := p.inflate(fh, off+int64(hlen+used), size)
	if err != nil {
		return 0, nil, err
	}
	_, after := deltaSize(delta)
	target, _ := deltaSize(delta[after:])
	if target > max {
		return 0, nil, errTooLarge
	}
	bt, base, err := p.resolve(baseOff, maxObjectRead, depth+1)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			err = errUnsupported
		}
		return 0, nil, err
	}
	out, err := applyDelta(base, delta)
	return bt, out, err
}

// packHeader reads a pack object's type and inflated size; used is 0 when
// the bytes are not a header.
func packHeader(b []byte) (t int, size int64, used int) {
	if len(b) == 0 {
		return 0, 0, 0
	}
	t = int(b[0]>>4) & 7
	size = int64(b[0] & 0x0f)
	shift := 4
	i := 0
	for b[i]&0x80 != 0 {
		i++
		if i >= len(b) || shift > 56 {
			return 0, 0, 0
		}
		size |= int64(b[i]&0x7f) << shift
		shift += 7
	}
	return t, size, i + 1
}

// ofsDeltaOffset reads an OFS_DELTA's base distance (gitformat-pack's
// offset encoding); k is 0 when malformed.
func ofsDeltaOffset(b []byte) (off int64, k int) {
	if len(b) == 0 {
		return 0, 0
	}
	i := 0
	off = int64(b[0] & 0x7f)
	for b[i]&0x80 != 0 {
		i++
		if i >= len(b) || off > 1<<48 {
			return 0, 0
		}
		off = ((off + 1) << 7) | int64(b[i]&0x7f)
	}
	return off, i + 1
}

// inflateAt inflates the zlib stream at off, which must hold exactly size
// bytes.
func inflateAt(fh io.ReaderAt, off, size int64) ([]byte, error) {
	z, err := zlib.NewReader(bufio.NewReader(io.NewSectionReader(fh, off, 1<<62)))
	if err != nil {
		return nil, errUnsupported
	}
	defer z.Close()
	return readExactly(z, size)
}

// readExactly reads n bytes and checks that nothing follows.
func readExactly(r io.Reader, n int64) ([]byte, error) {
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, errUnsupported
	}
	var one [1]byte
	if k, _ := r.Read(one[:]); k != 0 {
		return nil, errUnsupported
	}
	return data, nil
}

// deltaSize reads one of a delta's two leading sizes (little-endian base
// 128); k is the bytes used.
func deltaSize(b []byte) (size int64, k int) {
	shift := 0
	for k < len(b) && shift < 63 {
		c := b[k]
		k++
		size |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			return size, k
		}
	}
	return -1, len(b)
}

// applyDelta applies a git delta to base: the source and target sizes,
// then copy (from base) and insert (literal) instructions.
func applyDelta(base, delta []byte) ([]byte, error) {
	src, k := deltaSize(delta)
	if src != int64(len(base)) {
		return nil, errUnsupported
	}
	delta = delta[k:]
	target, k := deltaSize(delta)
	if target < 0 || target > maxObjectRead {
		return nil, errUnsupported
	}
	delta = delta[k:]
	out := make([]byte, 0, target)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n int64
			for i, bit := 0, byte(1); i < 7; i, bit = i+1, bit<<1 {
				if op&bit == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errUnsupported
				}
				if i < 4 {
					off |= int64(delta[0]) << (8 * i)
				} else {
					n |= int64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > int64(len(base)) || int64(len(out))+n > target {
				return nil, errUnsupported
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			if int(op) > len(delta) || int64(len(out))+int64(op) > target {
				return nil, errUnsupported
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errUnsupported
		}
	}
	if int64(len(out)) != target {
		return nil, fmt.Errorf("%w: delta result %d bytes, want %d", errUnsupported, len(out), target)
	}
	return out, nil
}
