package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// uncut holds the cases Head and Tail share: nothing to cut, or nothing
// to keep.
var uncut = []cutCase{
	{"empty", "", 5, ""},
	{"n zero", "abc", 0, ""},
	{"n negative", "abc", -1, ""},
	{"ascii shorter", "abc", 5, "abc"},
	{"ascii exact", "abc", 3, "abc"},
}

// "é" is C3 A9, "€" E2 82 AC, "😀" F0 9F 98 80.
func TestHead(t *testing.T) {
	tests := []cutCase{
		{"ascii cut", "abcdef", 4, "abcd"},
		{"before a two-byte rune", "xé", 1, "x"},
		{"inside a two-byte rune", "xéy", 2, "x"},
		{"after a two-byte rune", "xéy", 3, "xé"},
		{"inside a three-byte rune", "a€b", 2, "a"},
		{"inside a three-byte rune, last byte", "a€b", 3, "a"},
		{"inside a four-byte rune", "a😀b", 4, "a"},
		{"after a four-byte rune", "a😀b", 5, "a😀"},
		{"only a cut rune", "😀", 3, ""},
		{"invalid: stray continuation bytes are cut where asked", "a\x80\x80\x80\x80\x80b", 5, "a\x80\x80\x80\x80"},
		{"invalid: a lone lead byte is kept", "ab\xe2", 5, "ab\xe2"},
		{"invalid: cut before a lead byte", "ab\xffcd", 2, "ab"},
	}
	runCuts(t, "Head", Head[string], Head[[]byte], append(uncut, tests...))
}

func TestTail(t *testing.T) {
	tests := []cutCase{
		{"ascii cut", "abcdef", 4, "cdef"},
		{"inside a two-byte rune", "xé", 1, ""},
		{"before a two-byte rune", "xé", 2, "é"},
		{"inside a three-byte rune", "a€b", 3, "b"},
		{"inside a four-byte rune", "a😀b", 4, "b"},
		{"at a four-byte rune", "a😀b", 5, "😀b"},
		{"uncut text keeps its own leading continuation byte", "\xa9ab", 10, "\xa9ab"},
		{"invalid: more than three continuation bytes are kept", "x\x80\x80\x80\x80z", 5, "\x80\x80\x80\x80z"},
	}
	runCuts(t, "Tail", Tail[string], Tail[[]byte], append(uncut, tests...))
}

// cutCase is one cut of in to n bytes.
type cutCase struct {
	name string
	in   string
	n    int
	want string
}

// runCuts checks a cut on strings and on byte slices alike.
func runCuts(t *testing.T, name string, str func(string, int) string, byt func([]byte, int) []byte, tests []cutCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := str(tt.in, tt.n); got != tt.want {
				t.Errorf("%s(%q, %d) = %q, want %q", name, tt.in, tt.n, got, tt.want)
			}
			if got := byt([]byte(tt.in), tt.n); string(got) != tt.want {
				t.Errorf("%s([]byte %q, %d) = %q, want %q", name, tt.in, tt.n, got, tt.want)
			}
		})
	}
}

func TestTrimPartialStart(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"abc":                "abc",
		"\xa9":               "",
		"\x82\xac":           "",
		"\x9f\x98\x80":       "",
		"\xa9bc":             "bc",
		"\x9f\x98\x80b":      "b",
		"\x80\x80\x80\x80":   "\x80\x80\x80\x80",
		"\x80\x80\x80\x80zz": "\x80\x80\x80\x80zz",
	} {
		if got := TrimPartialStart(in); got != want {
			t.Errorf("TrimPartialStart(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"", 0, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "…"},
		{"abcdef", 5, "ab…"},
		{"abcdef", 2, ""},
		{"abcdef", 0, ""},
		{"abcdef", -1, ""},
		{"aé€😀", 6, "aé…"},
		{"aé€😀", 7, "aé…"},
		{"aé€😀", 9, "aé€…"},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.max); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestCutsStayValid: on valid text every cut is valid, within its budget,
// and loses at most the one character it would have split.
func TestCutsStayValid(t *testing.T) {
	s := "aé€😀" + strings.Repeat("x€", 5) + "😀"
	for n := -1; n <= len(s)+1; n++ {
		for name, got := range map[string]string{"Head": Head(s, n), "Tail": Tail(s, n), "Clip": Clip(s, n)} {
			if !utf8.ValidString(got) || len(got) > max(n, 0) {
				t.Errorf("%s(%d) = %q: invalid or over budget", name, n, got)
			}
			if name != "Clip" && n > 0 && len(got) < min(n, len(s))-(utf8.UTFMax-1) {
				t.Errorf("%s(%d) = %q: lost more than a split character", name, n, got)
			}
		}
		if h := Head(s, n); !strings.HasPrefix(s, h) {
			t.Errorf("Head(%d) = %q is not a prefix", n, h)
		}
		if tl := Tail(s, n); !strings.HasSuffix(s, tl) {
			t.Errorf("Tail(%d) = %q is not a suffix", n, tl)
		}
	}
}
