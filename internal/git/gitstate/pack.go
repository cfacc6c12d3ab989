package gitstate

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"io"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// Pack index version 2 (gitformat-pack): magic, version, a fan-out table
// of 256 cumulative counts, the sorted object ids, their CRCs, their
// 31-bit offsets (the top bit set: an index into the 64-bit offsets).
const (
	packIdxHeader = 8
	packFanout    = 256 * 4
	packMaxObject = 1 << 20
	packCommit    = 1 // object type of a commit in a pack
)

// packedObject finds id in a pack and opens it when it is stored whole; a
// deltified object (or none found) is errUnsupported.
func packedObject(gitDir, id string) (*objectReader, error) {
	want, err := hex.DecodeString(id)
	if err != nil {
		return nil, errUnsupported
	}
	idxs, _ := filepath.Glob(filepath.Join(gitDir, "objects", "pack", "pack-*.idx"))
	for _, idxPath := range idxs {
		off, found, err := packOffset(idxPath, want)
		if err != nil {
			return nil, err
		}
		if found {
			return openPacked(idxPath[:len(idxPath)-len(".idx")]+".pack", off)
		}
	}
	return nil, errUnsupported
}

// packOffset looks want up in one version 2 pack index.
func packOffset(idxPath string, want []byte) (int64, bool, error) {
	fh, err := store.OpenRegular(idxPath)
	if err != nil {
		return 0, false, errUnsupported
	}
	defer fh.Close()
	head := make([]byte, packIdxHeader+packFanout)
	if _, err := fh.ReadAt(head, 0); err != nil || !bytes.Equal(head[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return 0, false, errUnsupported
	}
	fan := func(i int) uint32 { return binary.BigEndian.Uint32(head[packIdxHeader+4*i:]) }
	total := int64(fan(255))
	lo := uint32(0)
	if want[0] > 0 {
		lo = fan(int(want[0]) - 1)
	}
	hi := fan(int(want[0]))
	if hi < lo || int64(hi) > total {
		return 0, false, errUnsupported
	}
	ids := make([]byte, int(hi-lo)*20)
	if _, err := fh.ReadAt(ids, packIdxHeader+packFanout+int64(lo)*20); err != nil {
		return 0, false, errUnsupported
	}
	for i := 0; i < int(hi-lo); i++ {
		if !bytes.Equal(ids[i*20:i*20+20], want) {
			continue
		}
		pos := int64(lo) + int64(i)
		var b [8]byte
		offsets := packIdxHeader + packFanout + total*24
		if _, err := fh.ReadAt(b[:4], offsets+pos*4); err != nil {
			return 0, false, errUnsupported
		}
		off := int64(binary.BigEndian.Uint32(b[:4]))
		if off&0x80000000 != 0 {
			if _, err := fh.ReadAt(b[:], offsets+total*4+(off&0x7fffffff)*8); err != nil {
				return 0, false, errUnsupported
			}
			off = int64(binary.BigEndian.Uint64(b[:]))
		}
		return off, true, nil
	}
	return 0, false, nil
}

// openPacked opens the object at off of a pack: its type and size header
// (a varint), then a zlib stream of the whole object.
func openPacked(packPath string, off int64) (*objectReader, error) {
	fh, err := store.OpenRegular(packPath)
	if err != nil {
		return nil, errUnsupported
	}
	var hdr [16]byte
	n, _ := fh.ReadAt(hdr[:], off)
	i := 0
	for ; i < n && hdr[i]&0x80 != 0; i++ {
	}
	if i >= n || (hdr[0]>>4)&7 != packCommit {
		fh.Close()
		return nil, errUnsupported
	}
	z, err := zlib.NewReader(io.NewSectionReader(fh, off+int64(i)+1, packMaxObject))
	if err != nil {
		fh.Close()
		return nil, errUnsupported
	}
	return &objectReader{Reader: z, kind: "commit", closers: []io.Closer{z, fh}}, nil
}
