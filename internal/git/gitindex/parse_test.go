package gitindex

import (
	"errors"
	"strings"
	"testing"
)

func TestCacheTreeRoot(t *testing.T) {
	oid := strings.Repeat("\xab", 20)
	const hexOID = "abababababababababababababababababababab"
	tests := []struct {
		name  string
		ext   string
		count int
		want  string
	}{
		{"covers the index", "\x003 1\n" + oid + "sub\x001 0\n" + oid, 3, hexOID},
		{"root invalidated", "\x00-1 1\n", 3, ""},
		{"covers fewer entries", "\x002 0\n" + oid, 3, ""},
		{"not the root entry first", "sub\x003 0\n" + oid, 3, ""},
		{"no line feed", "\x003 0", 3, ""},
		{"object id cut short", "\x003 0\n" + oid[:19], 3, ""},
		{"extra field", "\x003 0 1\n" + oid, 3, ""},
		{"count not a number", "\x00x 0\n" + oid, 3, ""},
		{"empty", "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cacheTreeRoot([]byte(tt.ext), tt.count); got != tt.want {
				t.Errorf("cacheTreeRoot(%q, %d) = %q, want %q", tt.ext, tt.count, got, tt.want)
			}
		})
	}
}

// entry builds one on-disk entry: stat data and object id (all 0x01),
// flags, path, then pad NULs.
func entry(flags uint16, path string, pad int) []byte {
	b := []byte(strings.Repeat("\x01", 60))
	b = append(b, byte(flags>>8), byte(flags))
	b = append(b, path...)
	return append(b, make([]byte, pad)...)
}

func TestParseEntry(t *testing.T) {
	tests := []struct {
		name      string
		in        []byte
		wantPath  string
		wantLen   int
		wantStage uint16
		wantValid bool
		wantErr   bool
	}{
		{"padded to 8, one NUL at least", entry(0, "abc", 7), "abc", 72, 0, false, false},
		{"path ending at a multiple of 8 takes 8 NULs", entry(0, "abcdefghij", 8), "abcdefghij", 80, 0, false, false},
		{"stage and assume-valid read", entry(flagValid|0x2000, "ab", 8), "ab", 72, 2, true, false},
		{"extended flags refused", entry(flagExtended, "ab", 8), "", 0, 0, false, true},
		{"empty path refused", entry(0, "", 8), "", 0, 0, false, true},
		{"no NUL refused", entry(0, "ab", 0), "", 0, 0, false, true},
		{"padding cut short refused", entry(0, "ab", 3), "", 0, 0, false, true},
		{"shorter than the fixed part", entry(0, "", 0)[:61], "", 0, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, n, err := parseEntry(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrUnsupported) {
					t.Errorf("parseEntry = %+v, %d, %v; want ErrUnsupported", e, n, err)
				}
				return
			}
			if err != nil || e.Path != tt.wantPath || n != tt.wantLen || e.Stage != tt.wantStage || e.AssumeValid != tt.wantValid {
				t.Errorf("parseEntry = %q len %d stage %d valid %v, %v; want %q len %d stage %d valid %v",
					e.Path, n, e.Stage, e.AssumeValid, err, tt.wantPath, tt.wantLen, tt.wantStage, tt.wantValid)
			}
			if e.Mode != 0x01010101 || e.OID[19] != 0x01 {
				t.Errorf("fields: mode %#x, oid %x", e.Mode, e.OID)
			}
		})
	}
}

// parseEntry decodes one version 2/3 entry and returns its padded length:
// the reader's entryLen and decodeEntry in one call, for the table above.
func parseEntry(b []byte) (Entry, int, error) {
	n, pathLen, err := entryLen(b)
	if err != nil {
		return Entry{}, 0, err
	}
	return decodeEntry(b, pathLen), n, nil
}
