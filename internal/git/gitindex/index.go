// Package gitindex reads git's index file (gitformat-index) — the subset an
// ordinary repository uses — and refuses everything else, so that callers
// hand what it cannot vouch for to git.
package gitindex

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // the index's own checksum is SHA-1
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// The reader reads the subset of git's index format that an ordinary
// repository uses and refuses everything else, so that whatever it cannot
// vouch for goes to git. Refused: versions other than 2 and 3 (4
// compresses paths), extended flags (intent-to-add, skip-worktree), a
// mandatory extension (split index "link", sparse "sdir"), a checksum that
// does not match, truncated data. Assume-valid and unmerged entries are
// read and marked (Entry.AssumeValid, Entry.Stage): what they mean is the
// caller's to judge.

// ErrUnsupported marks an index Read does not read; the caller runs git
// instead.
var ErrUnsupported = errors.New("index not read without git")

// Entry is one index entry with the stat data git compares, each field as
// the index stores it (truncated to 32 bits).
type Entry struct {
	Path            string
	CtimeS, CtimeNS uint32
	MtimeS, MtimeNS uint32
	Dev, Ino, Mode  uint32
	UID, GID, Size  uint32
	OID             [sha1.Size]byte // the blob, or a gitlink's commit: copied, as it costs no allocation
	AssumeValid     bool
	Stage           uint16
}

// Index is what callers need of an index file: the entries, in index
// order, and the cache-tree's root (the tree `git write-tree` would write,
// when valid).
type Index struct {
	Entries  []Entry
	RootTree string // hex; "" when the cache-tree does not cover the index
}

// ModeGitlink is the mode of a gitlink entry: a submodule's commit.
const ModeGitlink = 0o160000

const (
	headerLen     = 12
	entryFixedLen = 62 // stat data (40), object id (20), flags (2)
	minEntryLen   = 64 // the fixed part, a one-byte path and its NUL
	flagExtended  = 0x4000
	flagValid     = 0x8000
	flagStageMask = 0x3000
)

// Read reads the index file at path, refusing an index of more than
// maxEntries entries from its header alone (before reading the rest), so
// that a caller whose fast path only pays below a size gives up at once.
func Read(path string, maxEntries int) (*Index, error) {
	data, count, err := load(path, maxEntries)
	if err != nil {
		return nil, err
	}
	idx, err := parse(data, count)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	return idx, nil
}

// ReadGitlinks is Read(path, maxEntries).Gitlinks() without decoding the
// other entries: on the path of starting a task, where a 50,000-entry
// index decoded whole costs tens of milliseconds of allocation.
func ReadGitlinks(path string, maxEntries int) ([]string, error) {
	data, count, err := load(path, maxEntries)
	if err != nil {
		return nil, err
	}
	paths, err := gitlinks(data, count)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	return paths, nil
}

// gitlinks checks a whole index file as parse does and returns its
// gitlinks' paths, decoding nothing else.
func gitlinks(data []byte, count int) ([]string, error) {
	var paths []string
	_, err := check(data, count, func(b []byte, pathLen int) error {
		if isGitlink(modeStage(b)) {
			paths = append(paths, string(b[entryFixedLen:entryFixedLen+pathLen]))
		}
		return nil
	})
	return paths, err
}

// load reads the index file at path whole, after refusing from its header
// a signature, version or entry count (above maxEntries) it does not read.
func load(path string, maxEntries int) ([]byte, int, error) {
	fh, err := store.OpenRegular(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read index: %w", err)
	}
	defer fh.Close()
	var hdr [headerLen]byte
	if _, err := fh.ReadAt(hdr[:], 0); err != nil {
		return nil, 0, fmt.Errorf("read index %s: %w (%w)", path, ErrUnsupported, err)
	}
	if string(hdr[:4]) != "DIRC" {
		return nil, 0, fmt.Errorf("read index %s: %w: no DIRC signature", path, ErrUnsupported)
	}
	version := binary.BigEndian.Uint32(hdr[4:8])
	count := binary.BigEndian.Uint32(hdr[8:12])
	if version != 2 && version != 3 {
		return nil, 0, fmt.Errorf("read index %s: %w: version %d", path, ErrUnsupported, version)
	}
	if maxEntries < 0 || uint64(count) > uint64(maxEntries) {
		return nil, 0, fmt.Errorf("read index %s: %w: %d entries, more than %d", path, ErrUnsupported, count, maxEntries)
	}
	// Sized from the open file, so that a large index is read in one
	// allocation rather than grown into.
	var buf bytes.Buffer
	if fi, err := fh.Stat(); err == nil {
		buf.Grow(int(fi.Size()) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(fh); err != nil {
		return nil, 0, fmt.Errorf("read index %s: %w", path, err)
	}
	return buf.Bytes(), int(count), nil
}

// parse checks a whole index file (header included) and decodes its
// count entries and extensions.
func parse(data []byte, count int) (*Index, error) {
	if len(data) < headerLen+sha1.Size {
		return nil, fmt.Errorf("%w: truncated", ErrUnsupported)
	}
	// Sized from the data too: check refuses a count the data cannot
	// hold only once it runs.
	idx := &Index{Entries: make([]Entry, 0, min(count, (len(data)-headerLen)/minEntryLen))}
	ext, err := check(data, count, func(b []byte, pathLen int) error {
		idx.Entries = append(idx.Entries, decodeEntry(b, pathLen))
		return nil
	})
	if err != nil {
		return nil, err
	}
	_ = extensions(ext, func(sig string, ext []byte) {
		if sig == "TREE" {
			idx.RootTree = cacheTreeRoot(ext, count)
		}
	})
	return idx, nil
}

// check verifies a whole index file's checksum, walks its count entries
// (visit sees each one's bytes from its start and its path's length),
// refuses a mandatory extension and returns the extensions' bytes.
func check(data []byte, count int, visit func(b []byte, pathLen int) error) ([]byte, error) {
	if len(data) < headerLen+sha1.Size {
		return nil, fmt.Errorf("%w: truncated", ErrUnsupported)
	}
	body, sum := data[:len(data)-sha1.Size], data[len(data)-sha1.Size:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrUnsupported)
	}
	// Each entry takes at least minEntryLen bytes: a count the data cannot
	// hold is refused before anything is sized from it.
	if count > (len(body)-headerLen)/minEntryLen {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", ErrUnsupported, count, len(body))
	}
	off := headerLen
	for i := 0; i < count; i++ {
		n, pathLen, err := entryLen(body[off:])
		if err != nil {
			return nil, err
		}
		if err := visit(body[off:off+n], pathLen); err != nil {
			return nil, err
		}
		off += n
	}
	return body[off:], extensions(body[off:], nil)
}

// entryLen is the padded length and path length of the version 2/3 entry
// at the start of b, refusing extended flags.
func entryLen(b []byte) (n, pathLen int, err error) {
	if len(b) < entryFixedLen {
		return 0, 0, fmt.Errorf("%w: truncated entry", ErrUnsupported)
	}
	if binary.BigEndian.Uint16(b[60:62])&flagExtended != 0 {
		// Extended flags (intent-to-add, skip-worktree) change how git
		// compares the entry: refused, so nothing past here is parsed.
		return 0, 0, fmt.Errorf("%w: extended flags", ErrUnsupported)
	}
	end := bytes.IndexByte(b[entryFixedLen:], 0)
	if end <= 0 {
		return 0, 0, fmt.Errorf("%w: entry path", ErrUnsupported)
	}
	// An entry is NUL-padded to a multiple of 8 bytes, with at least one NUL.
	n = (entryFixedLen + end + 8) &^ 7
	if n > len(b) {
		return 0, 0, fmt.Errorf("%w: truncated entry", ErrUnsupported)
	}
	return n, end, nil
}

// decodeEntry decodes the entry at the start of b, which entryLen has
// accepted with the path length pathLen.
func decodeEntry(b []byte, pathLen int) Entry {
	u := func(i int) uint32 { return binary.BigEndian.Uint32(b[i*4:]) }
	e := Entry{CtimeS: u(0), CtimeNS: u(1), MtimeS: u(2), MtimeNS: u(3),
		Dev: u(4), Ino: u(5), UID: u(7), GID: u(8), Size: u(9)}
	copy(e.OID[:], b[40:60])
	e.AssumeValid = binary.BigEndian.Uint16(b[60:62])&flagValid != 0
	e.Mode, e.Stage = modeStage(b)
	e.Path = string(b[entryFixedLen : entryFixedLen+pathLen])
	return e
}

// modeStage reads the mode and the merge stage of the entry at the start
// of b.
func modeStage(b []byte) (uint32, uint16) {
	return binary.BigEndian.Uint32(b[24:28]), (binary.BigEndian.Uint16(b[60:62]) & flagStageMask) >> 12
}

// isGitlink: an entry of this mode and stage is a submodule that `git
// ls-files --stage` lists: a gitlink (mode 160000) at stage 0, not one
// side of a conflict (stages 1–3).
func isGitlink(mode uint32, stage uint16) bool { return mode == ModeGitlink && stage == 0 }

// extensions walks the extensions in b, refusing a mandatory one (its
// signature starts with a lower-case letter): one git requires a reader
// to understand, such as a split index's "link", whose entries live in
// another file. visit, when not nil, sees each optional one.
func extensions(b []byte, visit func(sig string, ext []byte)) error {
	for len(b) > 0 {
		if len(b) < 8 {
			return fmt.Errorf("%w: truncated extension", ErrUnsupported)
		}
		sig, size := string(b[:4]), binary.BigEndian.Uint32(b[4:8])
		if uint64(size) > uint64(len(b)-8) {
			return fmt.Errorf("%w: truncated extension", ErrUnsupported)
		}
		ext := b[8 : 8+size]
		b = b[8+size:]
		if sig[0] >= 'a' && sig[0] <= 'z' {
			return fmt.Errorf("%w: mandatory extension %q", ErrUnsupported, sig)
		}
		if visit != nil {
			visit(sig, ext)
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

// Gitlinks returns the paths of the stage-0 gitlink entries (submodules),
// in index order: the entries `git ls-files --stage` lists with mode
// 160000, but for those of a conflict (stages 1–3), whose path the
// stage-0 list does not hold.
func (idx *Index) Gitlinks() []string {
	var paths []string
	for _, e := range idx.Entries {
		if isGitlink(e.Mode, e.Stage) {
			paths = append(paths, e.Path)
		}
	}
	return paths
}
