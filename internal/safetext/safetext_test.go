package safetext

import (
	"errors"
	"strings"
	"testing"
)

func TestOneLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"plain", 0, "plain"},
		{"  two\n\nlines\t ", 0, "two lines"},
		{"esc \x1b]52;c;Y3Vy\x07 end", 0, "esc ]52;c;Y3Vy end"},
		{"cr\roverprint", 0, "cr overprint"},
		{"bidi \u202egnp.exe", 0, "bidi gnp.exe"},
		{"bad \xff utf8", 0, "bad utf8"},
		{"abcdefgh", 5, "ab…"},
		{"ééééé", 6, "é…"}, // never splits a character
	} {
		if got := OneLine(tc.in, tc.max); got != tc.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestBlock(t *testing.T) {
	if got := Block("a\n\tb\x1b[2Jc\u2066d"); got != "a\n\tb [2Jc d" {
		t.Errorf("Block = %q", got)
	}
}

func TestWriteLine(t *testing.T) {
	var b strings.Builder
	WriteLine(&b, "tribunal: error: "+errors.Join(errors.New("first\x1b[2J"), errors.New("second\u202e")).Error()+"\n")
	if got, want := b.String(), "tribunal: error: first [2J second\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFirstLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"", 10, ""},
		{"\n\n  exit status 1\nfatal: detail", 0, "exit status 1"},
		{"error: patch failed\x1b]52;c;aGk=\x07 here\nmore", 0, "error: patch failed ]52;c;aGk= here"},
		{"ééééé", 7, "éé…"},
	} {
		if got := FirstLine(c.in, c.max); got != c.want {
			t.Errorf("FirstLine(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
