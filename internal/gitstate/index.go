package gitstate

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // the index's own checksum is SHA-1
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// The index reader below serves ProvenClean only: it reads the subset of
// git's index format (gitformat-index) that a small, ordinary repository
// uses and refuses everything else, so that whatever it cannot vouch for
// goes to git. Refused: versions other than 2 and 3 (4 compresses paths),
// extended flags (intent-to-add, skip-worktree), assume-valid entries,
// unmerged stages, a mandatory extension (split index "link", sparse
// "sdir"), a checksum that does not match.

// errUnsupported marks an index, repository or tree the fast path does not
// read; the caller runs git instead.
var errUnsupported = errors.New("not provable without git")

// indexEntry is one stage-0 entry with the stat data git compares.
type indexEntry struct {
	path                 string
	ctimeS, ctimeNS      uint32
	mtimeS, mtimeNS      uint32
	dev, ino, mode       uint32
	uid, gid, size       uint32
	assumeValid, extflag bool
	stage                uint16
}

// index is what ProvenClean needs of .git/index: the entries and the
// cache-tree's root (the tree `git write-tree` would write, when valid).
type index struct {
	entries  []indexEntry
	rootTree string // hex; "" when the cache-tree does not cover the index
}

const (
	indexHeaderLen = 12
	entryFixedLen  = 62 // stat data (40), object id (20), flags (2)
	flagExtended   = 0x4000
	flagValid      = 0x8000
	flagStageMask  = 0x3000
)

// readIndex reads path, refusing an index of more than maxEntries entries
// from its header alone.
func readIndex(path string, maxEntries int) (*index, error) {
	fh, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var hdr [indexHeaderLen]byte
	if _, err := fh.ReadAt(hdr[:], 0); err != nil {
		return nil, err
	}
	if string(hdr[:4]) != "DIRC" {
		return nil, errUnsupported
	}
	version := binary.BigEndian.Uint32(hdr[4:8])
	count := binary.BigEndian.Uint32(hdr[8:12])
	if (version != 2 && version != 3) || count > uint32(maxEntries) {
		return nil, errUnsupported
	}
	data, err := io.ReadAll(fh)
	if err != nil {
		return nil, err
	}
	if len(data) < indexHeaderLen+sha1.Size {
		return nil, errUnsupported
	}
	body, sum := data[:len(data)-sha1.Size], data[len(data)-sha1.Size:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, errUnsupported
	}
	idx := &index{entries: make([]indexEntry, 0, count)}
	off := indexHeaderLen
	for i := uint32(0); i < count; i++ {
		e, n, err := parseEntry(body[off:])
		if err != nil {
			return nil, err
		}
		idx.entries = append(idx.entries, e)
		off += n
	}
	if err := idx.readExtensions(body[off:], int(count)); err != nil {
		return nil, err
	}
	return idx, nil
}

// parseEntry decodes one version 2/3 entry and returns its padded length.
func parseEntry(b []byte) (indexEntry, int, error) {
	if len(b) < entryFixedLen {
		return indexEntry{}, 0, errUnsupported
	}
	u := func(i int) uint32 { return binary.BigEndian.Uint32(b[i*4:]) }
	e := indexEntry{ctimeS: u(0), ctimeNS: u(1), mtimeS: u(2), mtimeNS: u(3),
		dev: u(4), ino: u(5), mode: u(6), uid: u(7), gid: u(8), size: u(9)}
	flags := binary.BigEndian.Uint16(b[60:62])
	e.assumeValid = flags&flagValid != 0
	e.extflag = flags&flagExtended != 0
	e.stage = (flags & flagStageMask) >> 12
	if e.extflag {
		// Extended flags (intent-to-add, skip-worktree) change how git
		// compares the entry: refused, so nothing past here is parsed.
		return e, 0, errUnsupported
	}
	end := bytes.IndexByte(b[entryFixedLen:], 0)
	if end <= 0 {
		return indexEntry{}, 0, errUnsupported
	}
	e.path = string(b[entryFixedLen : entryFixedLen+end])
	// An entry is NUL-padded to a multiple of 8 bytes, with at least one NUL.
	n := (entryFixedLen + end + 8) &^ 7
	if n > len(b) {
		return indexEntry{}, 0, errUnsupported
	}
	return e, n, nil
}

// readExtensions keeps the cache-tree's root and refuses a mandatory
// extension (its signature starts with a lower-case letter).
func (idx *index) readExtensions(b []byte, count int) error {
	for len(b) > 0 {
		if len(b) < 8 {
			return errUnsupported
		}
		sig, size := string(b[:4]), binary.BigEndian.Uint32(b[4:8])
		if uint64(size) > uint64(len(b)-8) {
			return errUnsupported
		}
		ext := b[8 : 8+size]
		b = b[8+size:]
		if sig[0] >= 'a' && sig[0] <= 'z' {
			return errUnsupported
		}
		if sig == "TREE" {
			idx.rootTree = cacheTreeRoot(ext, count)
		}
	}
	return nil
}

// cacheTreeRoot is the root entry of a cache-tree extension ("" NUL, entry
// count, space, subtree count, LF, object id): its tree when the entry
// count covers every index entry, else "" (invalidated: -1).
func cacheTreeRoot(ext []byte, count int) string {
	if len(ext) == 0 || ext[0] != 0 {
		return ""
	}
	nl := bytes.IndexByte(ext, '\n')
	if nl < 0 {
		return ""
	}
	fields := bytes.Fields(ext[1:nl])
	if len(fields) != 2 {
		return ""
	}
	n, err := strconv.Atoi(string(fields[0]))
	if err != nil || n != count || len(ext) < nl+1+sha1.Size {
		return ""
	}
	return hex.EncodeToString(ext[nl+1 : nl+1+sha1.Size])
}
