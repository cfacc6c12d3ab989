package safetext

import "unicode/utf8"

// The one place that cuts text to a byte budget without splitting a
// character: every bound on model output, diffs, transcripts and records
// goes through Head, Tail or Clip, so that none of them can write half a
// character (invalid UTF-8) where a reader expects text.

// Head returns the longest prefix of s that is at most n bytes long and
// does not end inside a character; n <= 0 gives an empty result. In text
// that is not UTF-8 it steps back at most UTFMax-1 bytes (a character's
// continuation bytes), so a run of stray continuation bytes is cut at n
// rather than dropped whole.
func Head[T ~string | ~[]byte](s T, n int) T {
	if n <= 0 {
		return s[:0]
	}
	if len(s) <= n {
		return s
	}
	cut := n
	for back := 0; back < utf8.UTFMax-1 && cut > 0 && !utf8.RuneStart(s[cut]); back++ {
		cut--
	}
	if !utf8.RuneStart(s[cut]) {
		cut = n // not a cut character: stray bytes, cut where asked
	}
	return s[:cut]
}

// Tail returns the last n bytes of s (all of s when it is shorter), less
// the continuation bytes that a cut through a character left at its
// start; n <= 0 gives an empty result.
func Tail[T ~string | ~[]byte](s T, n int) T {
	if n <= 0 {
		return s[:0]
	}
	if len(s) <= n {
		return s
	}
	return TrimPartialStart(s[len(s)-n:])
}

// TrimPartialStart drops the continuation bytes at the start of s that
// belong to a character whose first byte was cut off: for text read from
// an offset into a file. A character has at most UTFMax-1 of them, so a
// longer run is not a cut character and is kept as it is; an s made of no
// more than that is nothing but the cut character and becomes empty.
func TrimPartialStart[T ~string | ~[]byte](s T) T {
	for i := 0; i < len(s) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(s[i]) {
			return s[i:]
		}
	}
	if len(s) < utf8.UTFMax {
		return s[len(s):]
	}
	return s
}

// ellipsis marks where Clip cut.
const ellipsis = "…"

// Clip returns s if it fits in max bytes, else its Head with "…"
// appended, the two together at most max bytes (just "…" when max leaves
// no room for text; nothing when max cannot hold the mark).
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < len(ellipsis) {
		return ""
	}
	return Head(s, max-len(ellipsis)) + ellipsis
}
