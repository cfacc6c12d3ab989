package events

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/oklog/ulid/v2"
)

// NewULID returns a 26-character Crockford base-32 ULID whose first 48 bits
// are t in Unix milliseconds and whose last 80 bits are read from r.
//
// Callers pass crypto/rand.Reader. A failed or short read is returned as an
// error: tribunal 1.2.7 fell back to a weak PRNG here (spec §A.15) and the Go
// implementation must never do so.
func NewULID(r io.Reader, t time.Time) (string, error) {
	if r == nil {
		return "", errors.New("mint ulid: no entropy source")
	}
	id, err := ulid.New(ulid.Timestamp(t), r)
	if err != nil {
		return "", fmt.Errorf("mint ulid: %w", err)
	}
	return id.String(), nil
}

// NewUUIDv4 returns a random (version 4, RFC 4122 variant) UUID in the
// canonical lower-case 8-4-4-4-12 form, reading 16 bytes from r.
func NewUUIDv4(r io.Reader) (string, error) {
	if r == nil {
		return "", errors.New("mint uuid: no entropy source")
	}
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", fmt.Errorf("mint uuid: read entropy: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// isUUID reports whether s has the 8-4-4-4-12 hexadecimal shape that the
// schema's "uuid" format accepts; any version and either case is allowed
// because machine_id may have been written by another Onlooker tool.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
