package events

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/oklog/ulid/v2"
)

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

func TestNewULID(t *testing.T) {
	// 1469922850259 ms is the time part of the ULID spec's example
	// 01ARZ3NDEKTSV4RRFFQ69G5FAV.
	specTime := time.UnixMilli(1469922850259)
	tests := []struct {
		name    string
		entropy io.Reader
		at      time.Time
		want    string
	}{
		{"zero entropy", bytes.NewReader(make([]byte, 10)), specTime, "01ARZ3NDEK0000000000000000"},
		{"all-ones entropy", bytes.NewReader(bytes.Repeat([]byte{0xff}, 10)), specTime, "01ARZ3NDEKZZZZZZZZZZZZZZZZ"},
		{"unix epoch", bytes.NewReader(make([]byte, 10)), time.UnixMilli(0), "00000000000000000000000000"},
		{"sub-millisecond truncated", bytes.NewReader(make([]byte, 10)), specTime.Add(999 * time.Microsecond), "01ARZ3NDEK0000000000000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewULID(tt.entropy, tt.at)
			if err != nil {
				t.Fatalf("NewULID: %v", err)
			}
			if got != tt.want {
				t.Errorf("NewULID = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewULIDRandomShape(t *testing.T) {
	at := time.Date(2026, 5, 24, 10, 0, 0, 123_000_000, time.UTC)
	seen := map[string]bool{}
	for range 200 {
		id, err := NewULID(cryptoReader(), at)
		if err != nil {
			t.Fatalf("NewULID: %v", err)
		}
		if len(id) != 26 {
			t.Fatalf("len(%q) = %d, want 26", id, len(id))
		}
		for _, c := range id {
			if !strings.ContainsRune(crockford, c) {
				t.Fatalf("%q has %q outside the Crockford alphabet", id, c)
			}
		}
		parsed, err := ulid.ParseStrict(id)
		if err != nil {
			t.Fatalf("ParseStrict(%q): %v", id, err)
		}
		if got := ulid.Time(parsed.Time()); !got.Equal(at) {
			t.Fatalf("time of %q = %v, want %v", id, got, at)
		}
		if seen[id] {
			t.Fatalf("duplicate ULID %q", id)
		}
		seen[id] = true
	}
}

func TestNewULIDFailures(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		entropy io.Reader
		at      time.Time
	}{
		{"reader error", iotest.ErrReader(boom), time.Now()},
		{"short read", bytes.NewReader(make([]byte, 5)), time.Now()},
		{"nil reader", nil, time.Now()},
		{"before epoch", bytes.NewReader(make([]byte, 10)), time.UnixMilli(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := NewULID(tt.entropy, tt.at)
			if err == nil {
				t.Fatalf("NewULID = %q, want an error", id)
			}
			if id != "" {
				t.Errorf("NewULID returned %q alongside the error", id)
			}
		})
	}
	if _, err := NewULID(iotest.ErrReader(boom), time.Now()); !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap the entropy failure", err)
	}
}

func TestNewUUIDv4(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"zeros", make([]byte, 16), "00000000-0000-4000-8000-000000000000"},
		{"ones", bytes.Repeat([]byte{0xff}, 16), "ffffffff-ffff-4fff-bfff-ffffffffffff"},
		{"counting", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "00010203-0405-4607-8809-0a0b0c0d0e0f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewUUIDv4(bytes.NewReader(tt.in))
			if err != nil {
				t.Fatalf("NewUUIDv4: %v", err)
			}
			if got != tt.want {
				t.Errorf("NewUUIDv4 = %q, want %q", got, tt.want)
			}
		})
	}
	for range 100 {
		id, err := NewUUIDv4(cryptoReader())
		if err != nil {
			t.Fatalf("NewUUIDv4: %v", err)
		}
		if !isUUID(id) || id != strings.ToLower(id) || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) {
			t.Fatalf("%q is not a lower-case version 4, variant 10 UUID", id)
		}
	}
	for _, r := range []io.Reader{iotest.ErrReader(errors.New("boom")), bytes.NewReader(make([]byte, 15)), nil} {
		if id, err := NewUUIDv4(r); err == nil {
			t.Errorf("NewUUIDv4(%T) = %q, want an error", r, id)
		}
	}
}

func TestIsUUID(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"6ba7b810-9dad-11d1-80b4-00c04fd430c8", true},
		{"6BA7B810-9DAD-11D1-80B4-00C04FD430C8", true},
		{"00000000-0000-4000-8000-000000000000", true},
		{"6ba7b8109dad11d180b400c04fd430c8", false},
		{"6ba7b810-9dad-11d1-80b4-00c04fd430c", false},
		{"6ba7b810-9dad-11d1-80b4-00c04fd430c8a", false},
		{"6ba7b810_9dad-11d1-80b4-00c04fd430c8", false},
		{"6ba7b810-9dad-11d1-80b4-00c04fd430cg", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isUUID(tt.in); got != tt.want {
			t.Errorf("isUUID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
