package reviewfmt

import (
	"net/url"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// zwsp is the zero-width space put inside a mention, an issue reference
// or a URL scheme that model text carries, so that GitHub neither
// notifies, cross-links nor links it while the reader still sees the
// text. safetext drops every such character from the input first, so the
// only ones in the output are ours.
const zwsp = "\u200b"

// mdEscaped are the ASCII characters that start Markdown syntax inside a
// line (emphasis, code, links, images, tables, strikethrough, entities);
// each is written behind a backslash. '<' and '>' never arrive:
// safetext.Inline turns them into '‹' and '›'.
const mdEscaped = "\\`*_[](){}#!|~&"

// inline makes untrusted text (a model's message, a file name, a PR title)
// inert inside one line of Markdown: safetext.Inline neutralises controls,
// line breaks and tags and cuts it to max bytes, then every Markdown
// character is escaped and mentions, references and autolinks are broken.
func inline(s string, max int) string {
	s = safetext.Inline(s, max)
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '@':
			b.WriteString("@" + zwsp)
			continue
		case r == ':' && strings.HasPrefix(s[i:], "://"):
			b.WriteString(":" + zwsp)
			continue
		case (r == 'w' || r == 'W') && hasPrefixFold(s[i:], "www."):
			b.WriteString(s[i:i+1] + zwsp)
			continue
		case r < 0x80 && strings.ContainsRune(mdEscaped, r):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		if r == '#' {
			b.WriteString(zwsp)
		}
	}
	return b.String()
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// codeSpan shows untrusted text as inline code, where Markdown makes
// nothing of it: the delimiter is one backtick longer than any run inside.
func codeSpan(s string, max int) string {
	s = safetext.Inline(s, max)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// codeBlock shows untrusted multi-line text as a fenced block: each line
// neutralised by safetext.Inline, the fence longer than any backtick run
// inside so the text cannot close it.
func codeBlock(s string, maxLine int) string {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")), "\n")
	for i, l := range lines {
		lines[i] = safetext.Inline(l, maxLine)
	}
	body := strings.Join(lines, "\n")
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	return fence + "text\n" + body + "\n" + fence
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// blobURL links file:line at the head commit, "" when o lacks a part.
// Every path segment is escaped, parentheses too, so a file name cannot
// end the Markdown link destination.
func blobURL(o MarkdownOptions, head, file string, line int) string {
	if o.ServerURL == "" || o.Repository == "" || head == "" || file == "" {
		return ""
	}
	segs := strings.Split(strings.TrimPrefix(file, "./"), "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("(", "%28", ")", "%29").Replace(url.PathEscape(s))
	}
	u := strings.TrimRight(o.ServerURL, "/") + "/" + pathEscapeAll(o.Repository) + "/blob/" + url.PathEscape(head) + "/" + strings.Join(segs, "/")
	if line > 0 {
		u += "#L" + itoa(line)
	}
	return u
}

// pathEscapeAll escapes each segment of an "owner/name" repository.
func pathEscapeAll(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
