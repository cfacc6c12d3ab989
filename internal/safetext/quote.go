package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuotePrefix starts every line of a quoted block. Text that a model wrote
// (a judge's critique, a finding, a file name it cited) reaches Claude Code
// only behind it, so none of its lines can pass for one of tribunal's own
// ("tribunal: …", "verdict: …", an instruction): those start at the margin.
// It is also Markdown's block quote, so the summaries render it as one.
const QuotePrefix = "> "

// kind is what the neutraliser makes of one rune of untrusted text.
type kind int

const (
	keep    kind = iota // relayed, possibly as another rune (see neutral)
	lineEnd             // a line break: a new quoted line
	drop                // invisible and able to change what a reader sees
)

// neutral classifies r and returns the rune relayed for it (keep only).
// Line breaks are every character a reader may take as one (CR, VT, FF,
// NEL, the Unicode line and paragraph separators), so that each becomes a
// quoted line instead of an unquoted one. Other C0 controls and DEL become
// their visible Control Pictures (ESC is "␛": an escape sequence is shown,
// never run); C1 controls and invalid UTF-8 become U+FFFD. Bidi controls,
// zero-width and other format characters (the Unicode tag characters
// among them, which smuggle invisible text to models) and variation
// selectors are dropped. '<' and '>' become '‹' and '›', so no tag
// (`</system-reminder>`, `<tribunal>`) can be opened or closed.
func neutral(r rune) (kind, rune) {
	switch {
	case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
		return lineEnd, 0
	case r == '\t':
		return keep, ' '
	case r == '<':
		return keep, '‹'
	case r == '>':
		return keep, '›'
	case r < 0x20:
		return keep, 0x2400 + r
	case r == 0x7f:
		return keep, '␡'
	case r == utf8.RuneError || (r >= 0x80 && r < 0xa0):
		return keep, utf8.RuneError
	case unicode.Is(unicode.Bidi_Control, r), unicode.Is(unicode.Cf, r),
		unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return drop, 0
	}
	return keep, r
}

// Quote relays untrusted text as a quoted block: every line starts with
// QuotePrefix ("> " for a blank line inside the text is ">"), each
// character passes through the neutraliser (see neutral), trailing spaces
// and blank lines at either end are dropped and runs of blank lines become
// one. The block, prefixes and line breaks included, takes at most max
// bytes (max <= 0: no bound); when the text is longer, a last line written
// by tribunal, outside the quote, says how many bytes of the original were
// left off and, when see is not empty, where to read them ("… (1234 more
// bytes; see `tribunal-session show ID`)"). The result has no trailing
// newline and is "" when the text has nothing visible.
//
// Quote is the one way model-written text reaches Claude Code: the
// caller's own framing (the verdict line from the record's typed fields,
// the sentence telling the model what to do) stands before and after it,
// at the margin, where the quoted text cannot reach.
func Quote(s string, max int, see string) string {
	q := quoter{max: max}
	cr := false
	for off, r := range s {
		k, m := neutral(r)
		crlf := cr && r == '\n'
		cr = r == '\r'
		switch k {
		case drop:
			continue
		case lineEnd:
			if !crlf {
				q.endLine()
			}
			continue
		}
		if unicode.IsSpace(m) {
			if q.spaces == 0 {
				q.spaceAt = off
			}
			q.spaces++
			continue
		}
		if !q.add(m) {
			cut := off
			if q.spaces > 0 {
				cut = q.spaceAt
			}
			return q.b.String() + q.note(len(s)-cut, see)
		}
	}
	return q.b.String()
}

// quoter builds one quoted block within its bound.
type quoter struct {
	b   strings.Builder
	max int
	// open: the current line has its prefix; blank: a blank line is due
	// before the next content; spaces: spaces not written yet (dropped at
	// the end of a line), the first of them at byte spaceAt of the input.
	open, blank bool
	spaces      int
	spaceAt     int
}

// endLine closes the current line; a line break with no line open leaves
// a blank line due, written only if more content follows.
func (q *quoter) endLine() {
	if !q.open && q.b.Len() > 0 {
		q.blank = true
	}
	q.open, q.spaces = false, 0
}

// add writes r, with what must precede it (a line break, a due blank
// line, the prefix, pending spaces), or reports that it does not fit.
func (q *quoter) add(r rune) bool {
	var head string
	if !q.open {
		if q.b.Len() > 0 {
			head = "\n"
			if q.blank {
				head += strings.TrimRight(QuotePrefix, " ") + "\n"
			}
		}
		head += QuotePrefix
	}
	head += strings.Repeat(" ", q.spaces)
	if q.max > 0 && q.b.Len()+len(head)+utf8.RuneLen(r) > q.max {
		return false
	}
	q.b.WriteString(head)
	q.b.WriteRune(r)
	q.open, q.blank, q.spaces = true, false, 0
	return true
}

// note is tribunal's own line after a block that was cut.
func (q *quoter) note(more int, see string) string {
	sep := ""
	if q.b.Len() > 0 {
		sep = "\n"
	}
	if see == "" {
		return fmt.Sprintf("%s… (%d more bytes not shown)", sep, more)
	}
	return fmt.Sprintf("%s… (%d more bytes; see `%s`)", sep, more, see)
}

// Inline is the neutraliser for text that stays inside one of tribunal's
// own lines: a file name, a table cell, a short error. Each character goes
// through neutral, every run of line breaks and spaces becomes one space,
// and the result is cut to at most max bytes (max <= 0: no bound) without
// splitting a character, a cut marked with "…". Being inside a line, it
// cannot start one, and its '<' and '>' cannot form a tag.
func Inline(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		k, m := neutral(r)
		switch {
		case k == drop:
			continue
		case k == lineEnd || unicode.IsSpace(m):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(m)
	}
	return cut(b.String(), max)
}

// cut shortens s to at most max bytes without splitting a character,
// marking a cut with "…"; max <= 0 means no limit.
func cut(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	return strings.TrimRight(Head(s, max-len(ellipsis)), " ") + ellipsis
}
