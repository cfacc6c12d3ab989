// Package safetext makes model- and tool-derived text safe to print on a
// terminal, to embed in one line, or to relay into Claude Code as a quoted
// block.
package safetext

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unsafe reports runes that must never reach a terminal from text we did
// not write: control characters (ESC starts sequences that can rewrite the
// screen or, through OSC 52, the clipboard; CR overprints), bidi controls
// (which reorder what a reader sees), and invalid UTF-8.
func unsafe(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// OneLine flattens s to a single line (every run of whitespace or unsafe
// characters becomes one space) and cuts it to at most max bytes without
// splitting a character, marking a cut with "…". max <= 0 means no limit.
func OneLine(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unsafe(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return cut(b.String(), max)
}

// FirstLine is OneLine of s's first non-blank line: a short form of a
// message whose later lines are detail (a git error, a model's answer).
func FirstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return OneLine(s, max)
}

// WriteLine writes s to w as one safe line (OneLine without a length
// limit) and a newline. Every diagnostic tribunal prints (warnings,
// errors, hints, progress) goes through it: their text quotes repository
// files, model output and wrapped error chains, any of which may carry
// terminal escapes or span lines (errors.Join does).
func WriteLine(w io.Writer, s string) {
	io.WriteString(w, OneLine(s, 0)+"\n")
}

// Block keeps line breaks and tabs but turns every other unsafe character
// into a space: for multi-line text such as an actor's message shown in a
// summary.
func Block(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unsafe(r) {
			return ' '
		}
		return r
	}, s)
}
