package records

import (
	"errors"
	"strings"
	"testing"
)

func TestResolveID(t *testing.T) {
	ids := []string{ // newest first
		"01M8YHTH7Q2B3C4D5E6F7G8H9J",
		"01M8YHTHAAAAAAAAAAAAAAAAAA",
		"01M8XK0000000000000000000A",
		"01H00000000000000000000000",
	}
	cases := []struct {
		typed   string
		want    string
		wantErr error
		msg     string // in the error
	}{
		{"last", ids[0], nil, ""},
		{" LAST ", ids[0], nil, ""},
		{ids[2], ids[2], nil, ""},
		{strings.ToLower(ids[3]), ids[3], nil, ""},
		{"01M8XK00", ids[2], nil, ""},  // a prefix
		{"01h0", ids[3], nil, ""},      // the shortest prefix, any case
		{"01M8YHTH7", ids[0], nil, ""}, // a longer one
		{"7g8h9j", ids[0], nil, ""},    // the end, as log prints it, any case
		{"B3C4D5", ids[0], nil, ""},    // any part
		{"000A", ids[2], nil, ""},
		{"01M8YHTH", "", ErrAmbiguousID, `"01M8YHTH" matches 2 tasks: task 01M8YHTH7Q2B3C4D5E6F7G8H9J (`},
		{"AAAA", ids[1], nil, ""},
		{"0000000000000", "", ErrAmbiguousID, `"0000000000000" matches 2 tasks: task 01M8XK0000000000000000000A (2026-12-03 09:15:31Z), task 01H00000000000000000000000 (2023-05-09 10:13:00Z)`},
		{"01M", "", ErrShortID, "at least 4 characters"},
		{"01ZZ", "", ErrUnknownID, `no task "01ZZ" in this project`},
		{"../../etc", "", ErrUnknownID, ""},
		{"", "", ErrUnknownID, "empty"},
	}
	for _, c := range cases {
		got, err := ResolveID(ids, c.typed, "task")
		if got != c.want || !errors.Is(err, c.wantErr) || (c.wantErr == nil) != (err == nil) {
			t.Errorf("ResolveID(%q) = %q, %v; want %q, %v", c.typed, got, err, c.want, c.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ResolveID(%q) error %q lacks %q", c.typed, err, c.msg)
		}
	}
	// A whole id beats a prefix, and a prefix beats another part.
	tie := []string{"01BBBBB01AAAAAAAAAAAAAAAAA", "01AAAAAAAAAAAAAAAAAAAAAAAB", "01AAAA"}
	for typed, want := range map[string]string{"01AAAA": tie[2], "01aaaaa": tie[1], "B01AAA": tie[0]} {
		if got, err := ResolveID(tie, typed, "task"); got != want || err != nil {
			t.Errorf("ResolveID(%q) = %q, %v; want %q", typed, got, err, want)
		}
	}
	var amb *AmbiguousError
	if _, err := ResolveID(ids, "01M8YHTH", "run"); !errors.As(err, &amb) || len(amb.Candidates) != 2 || amb.Head() != `the id is ambiguous: "01M8YHTH" matches 2 runs` {
		t.Errorf("ambiguous: %#v", err)
	}
	if _, err := ResolveID(nil, "last", "kept task"); !errors.Is(err, ErrUnknownID) || !strings.Contains(err.Error(), "no kept task is recorded") {
		t.Errorf("last of nothing: %v", err)
	}
}

func TestCandidates(t *testing.T) {
	ids := []string{"A", "B", "C", "D", "E", "F", "G"}
	if got, want := Candidates(ids[:2]), "A, B"; got != want {
		t.Errorf("Candidates = %q, want %q", got, want)
	}
	if got, want := Candidates(ids), "A, B, C, D, E and 2 more"; got != want {
		t.Errorf("Candidates = %q, want %q", got, want)
	}
}
