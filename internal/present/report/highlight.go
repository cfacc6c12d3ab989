package report

import (
	"path"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// span is a run of text with its colour class ("" for plain).
type span struct{ Class, Text string }

// diffLine is one line of a diff or message: its kind (file header, hunk
// header, addition, deletion, context) and its text, split into spans for
// syntax colouring.
type diffLine struct {
	Class string
	Spans []span
}

// diffFile is one file's part of a diff, collapsible on the page.
type diffFile struct {
	Path    string
	Kind    string
	Added   int
	Deleted int
	Binary  bool
	Lines   []diffLine
}

// lang is what the colouring knows of a language: its line comment
// marker and its keywords.
type lang struct {
	comment  string
	keywords map[string]bool
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// langs is built on first use: every command links this package, and
// its word sets would otherwise be built at every start.
var langs = sync.OnceValue(func() map[string]lang {
	cLike := words(`break case catch class const continue default defer do else enum export extends false final
finally for func function go goto if impl implements import interface let map match mod mut new nil null
package private protected pub public range return select static struct super switch this throw throws trait
true try type typeof undefined use var void while yield async await fn self crate chan int string bool
float64 error byte rune`)
	scripting := words(`and as assert async await break class continue def del elif else except False finally for
from global if import in is lambda None nonlocal not or pass raise return True try while with yield
then fi do done case esac function local export echo`)
	return map[string]lang{
		".go": {"//", cLike}, ".js": {"//", cLike}, ".ts": {"//", cLike}, ".tsx": {"//", cLike},
		".jsx": {"//", cLike}, ".rs": {"//", cLike}, ".java": {"//", cLike}, ".c": {"//", cLike},
		".h": {"//", cLike}, ".cc": {"//", cLike}, ".cpp": {"//", cLike}, ".cs": {"//", cLike},
		".kt": {"//", cLike}, ".swift": {"//", cLike}, ".scala": {"//", cLike},
		".py": {"#", scripting}, ".sh": {"#", scripting}, ".bash": {"#", scripting}, ".rb": {"#", scripting},
		".toml": {"#", nil}, ".yaml": {"#", nil}, ".yml": {"#", nil}, ".sql": {"--", nil},
	}
})

// langOf picks the colouring for a file name; ok is false for a language
// it does not know (its lines are coloured as a diff only).
func langOf(name string) (lang, bool) {
	l, ok := langs()[strings.ToLower(path.Ext(name))]
	return l, ok
}

// highlight splits one line of code into spans: comments, strings,
// numbers and keywords. It is a colouring for reading, not a parser: a
// token it misjudges is only shown in another colour.
func highlight(code string, l lang) []span {
	var out []span
	plain := strings.Builder{}
	flush := func() {
		if plain.Len() > 0 {
			out = append(out, span{Text: plain.String()})
			plain.Reset()
		}
	}
	for i := 0; i < len(code); {
		rest := code[i:]
		switch c := code[i]; {
		case l.comment != "" && strings.HasPrefix(rest, l.comment):
			flush()
			return append(out, span{Class: "tc", Text: rest})
		case c == '"' || c == '\'' || c == '`':
			end := stringEnd(rest, c)
			flush()
			out = append(out, span{Class: "ts", Text: rest[:end]})
			i += end
		case c >= '0' && c <= '9' && (i == 0 || !isWord(rune(code[i-1]))):
			end := 1
			for end < len(rest) && (isWord(rune(rest[end])) || rest[end] == '.') {
				end++
			}
			flush()
			out = append(out, span{Class: "tn", Text: rest[:end]})
			i += end
		case isWordStart(c):
			end := 1
			for end < len(rest) && rest[end] < utf8.RuneSelf && isWord(rune(rest[end])) {
				end++
			}
			if l.keywords[rest[:end]] {
				flush()
				out = append(out, span{Class: "tk", Text: rest[:end]})
			} else {
				plain.WriteString(rest[:end])
			}
			i += end
		default:
			_, size := utf8.DecodeRuneInString(rest)
			plain.WriteString(rest[:size])
			i += size
		}
	}
	flush()
	return out
}

// stringEnd is the length of the string literal at the start of s, quote
// q included; an unterminated one runs to the end of the line.
func stringEnd(s string, q byte) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if q != '`' {
				i++
			}
		case q:
			return i + 1
		}
	}
	return len(s)
}

func isWordStart(c byte) bool { return c == '_' || c < utf8.RuneSelf && unicode.IsLetter(rune(c)) }
func isWord(r rune) bool      { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// plainLines is a message (the actor's) as lines without colouring.
func plainLines(text string) []diffLine {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	out := make([]diffLine, len(lines))
	for i, l := range lines {
		out[i] = diffLine{Class: "ctx", Spans: []span{{Text: l}}}
	}
	return out
}

// diffFiles splits a unified diff into its files at its "diff --git"
// lines, each line classed as a diff line and its code coloured by the
// file's language. unidiff.Parse describes the files (kind, counts); a
// chunk is matched to its description by the paths on its first line.
func diffFiles(diff string) []diffFile {
	parsed := unidiff.Parse([]byte(diff))
	var chunks [][]string
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		if strings.HasPrefix(l, "diff --git ") || chunks == nil {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], l)
	}
	if len(chunks) > 0 && len(chunks[0]) > 0 && !strings.HasPrefix(chunks[0][0], "diff --git ") {
		chunks = chunks[1:] // text before the first file, which Parse ignores too
	}
	var out []diffFile
	for _, lines := range chunks {
		f := diffFile{Path: strings.TrimPrefix(lines[0], "diff --git "), Kind: "modified"}
		var l lang
		known := false
		if p, ok := matchFile(lines, parsed); ok {
			f.Path, f.Kind, f.Added, f.Deleted, f.Binary = p.Path(), p.Kind.String(), p.Added, p.Deleted, p.Binary
			if p.Kind == unidiff.Renamed || p.Kind == unidiff.Copied {
				f.Path = p.OldPath + " → " + p.NewPath
			}
			l, known = langOf(p.Path())
		}
		inHunk := false
		for _, text := range lines {
			f.Lines = append(f.Lines, classify(text, &inHunk, l, known))
		}
		out = append(out, f)
	}
	return out
}

// matchFile finds the parsed description of a file's chunk: the paths of
// its ---/+++ lines (or, without them, of its "diff --git" line).
func matchFile(lines []string, parsed []unidiff.File) (unidiff.File, bool) {
	old, new := "", ""
	if a, b, ok := strings.Cut(strings.TrimPrefix(lines[0], "diff --git "), " b/"); ok {
		old, new = strings.TrimPrefix(a, "a/"), b
	}
header:
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "--- "):
			old = strings.TrimPrefix(strings.TrimPrefix(l, "--- "), "a/")
		case strings.HasPrefix(l, "+++ "):
			new = strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/")
		case strings.HasPrefix(l, "@@"):
			break header
		}
	}
	for _, p := range parsed {
		switch {
		case p.Kind == unidiff.Added && p.NewPath == new,
			p.Kind == unidiff.Deleted && p.OldPath == old,
			p.OldPath == old && p.NewPath == new:
			return p, true
		}
	}
	return unidiff.File{}, false
}

// classify classes one diff line; code lines of a known language are
// coloured after their +, - or space.
func classify(text string, inHunk *bool, l lang, known bool) diffLine {
	switch {
	case strings.HasPrefix(text, "@@"):
		*inHunk = true
		return diffLine{Class: "hunk", Spans: []span{{Text: text}}}
	case !*inHunk:
		return diffLine{Class: "file", Spans: []span{{Text: text}}}
	}
	class := "ctx"
	switch {
	case strings.HasPrefix(text, "+"):
		class = "add"
	case strings.HasPrefix(text, "-"):
		class = "del"
	case strings.HasPrefix(text, `\`):
		return diffLine{Class: "file", Spans: []span{{Text: text}}}
	}
	if !known || text == "" {
		return diffLine{Class: class, Spans: []span{{Text: text}}}
	}
	return diffLine{Class: class, Spans: append([]span{{Text: text[:1]}}, highlight(text[1:], l)...)}
}
