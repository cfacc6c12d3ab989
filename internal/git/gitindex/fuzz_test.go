package gitindex

import (
	"crypto/sha1" //nolint:gosec // the index's own checksum is SHA-1
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// indexBytes is a version 2 index of the given entries (mode, path), each
// with zero stat data and object id, checksummed as git writes it.
func indexBytes(entries ...struct {
	mode uint32
	path string
}) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
	for _, e := range entries {
		ent := make([]byte, entryFixedLen)
		binary.BigEndian.PutUint32(ent[24:], e.mode)
		binary.BigEndian.PutUint16(ent[60:], uint16(len(e.path)))
		ent = append(ent, e.path...)
		for len(ent)%8 != 0 || len(ent) == entryFixedLen+len(e.path) {
			ent = append(ent, 0)
		}
		b = append(b, ent...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

// FuzzParse: no index file, however made, panics the reader; what it
// accepts it accepts whole (as many entries as the header says), and the
// gitlinks-only walk agrees with it, accepting and refusing alike. The
// checksum is recomputed for half the inputs, so that the fuzzer reaches
// past it.
func FuzzParse(f *testing.F) {
	type entry = struct {
		mode uint32
		path string
	}
	f.Add(indexBytes(entry{0o100644, "a.txt"}, entry{ModeGitlink, "sub/mod"}), false)
	f.Add(indexBytes(entry{0o100644, "a"}), true)
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"), true)
	f.Fuzz(func(t *testing.T, data []byte, fixSum bool) {
		if fixSum && len(data) >= headerLen+sha1.Size {
			sum := sha1.Sum(data[:len(data)-sha1.Size])
			data = append(data[:len(data)-sha1.Size:len(data)-sha1.Size], sum[:]...)
		}
		if len(data) < headerLen {
			return
		}
		count := int(binary.BigEndian.Uint32(data[8:12]) & 0xFFFFF)
		idx, err := parse(data, count)
		links, lerr := gitlinks(data, count)
		if (err == nil) != (lerr == nil) {
			t.Fatalf("parse: %v; the gitlinks walk: %v", err, lerr)
		}
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("a refusal that is not ErrUnsupported: %v", err)
			}
			return
		}
		if len(idx.Entries) != count {
			t.Fatalf("%d entries read, the header says %d", len(idx.Entries), count)
		}
		if got := idx.Gitlinks(); !reflect.DeepEqual(got, links) {
			t.Fatalf("Gitlinks() = %q, the walk found %q", got, links)
		}
	})
}

// TestFuzzSeedsAreIndexes: the fuzzer starts from indexes the reader
// accepts, so that it mutates its way into the entries, not only the
// header.
func TestFuzzSeedsAreIndexes(t *testing.T) {
	data := indexBytes(struct {
		mode uint32
		path string
	}{0o100644, "a.txt"}, struct {
		mode uint32
		path string
	}{ModeGitlink, "sub/mod"})
	idx, err := parse(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := idx.Gitlinks(); !reflect.DeepEqual(got, []string{"sub/mod"}) || idx.Entries[0].Path != "a.txt" {
		t.Errorf("seed index read as %+v", idx)
	}
}
