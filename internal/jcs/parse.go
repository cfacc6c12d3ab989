package jcs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// maxDepth bounds nesting so that hostile input cannot exhaust the stack of
// this recursive parser; no document tribunal signs comes near it. It is
// tribunal's one nesting bound, checked here as the parser goes.
const maxDepth = nesting.Max

// parser is a strict RFC 8259 reader that writes the canonical form as it
// goes. encoding/json cannot be used for the reading: it silently replaces
// invalid UTF-8 and lone surrogates with U+FFFD and keeps the last of
// duplicate names, each of which would let two different inputs share one
// canonical form.
type parser struct {
	in  []byte
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrInvalid, p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(out []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d", maxDepth)
	}
	if p.pos >= len(p.in) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object(out, depth)
	case c == '[':
		return p.array(out, depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return appendString(out, s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(out)
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.in[p.pos:min(p.pos+5, len(p.in))]), lit) {
				p.pos += len(lit)
				return append(out, lit...), nil
			}
		}
		return nil, p.errorf("unexpected character %q", c)
	}
}

func (p *parser) object(out []byte, depth int) ([]byte, error) {
	p.pos++ // '{'
	var ms []member
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return append(out, '{', '}'), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return nil, p.errorf("expected a member name")
		}
		name, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return nil, p.errorf("expected ':' after member name")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(nil, depth+1)
		if err != nil {
			return nil, err
		}
		ms = append(ms, member{name: name, units: utf16Units(name), value: v})
		p.skipSpace()
		if p.pos >= len(p.in) {
			return nil, p.errorf("unterminated object")
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return p.appendObject(out, ms)
		default:
			return nil, p.errorf("expected ',' or '}' in object")
		}
	}
}

func (p *parser) array(out []byte, depth int) ([]byte, error) {
	p.pos++ // '['
	out = append(out, '[')
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		return append(out, ']'), nil
	}
	for first := true; ; first = false {
		if !first {
			out = append(out, ',')
		}
		p.skipSpace()
		var err error
		if out, err = p.value(out, depth+1); err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return nil, p.errorf("unterminated array")
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return append(out, ']'), nil
		default:
			return nil, p.errorf("expected ',' or ']' in array")
		}
	}
}

// str reads a string token and returns its unescaped value.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.pos >= len(p.in) {
			return "", p.errorf("unterminated string")
		}
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("unescaped control character %q in string", c)
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.pos++
		default:
			// DecodeRune also refuses UTF-8-encoded surrogates and
			// overlong forms, reporting them as size-1 errors.
			r, size := utf8.DecodeRune(p.in[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			b.WriteRune(r)
			p.pos += size
		}
	}
}

// shortEscapes maps the character after a backslash to what it stands for.
var shortEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (p *parser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.in) {
		return p.errorf("unterminated escape")
	}
	c := p.in[p.pos+1]
	if r, ok := shortEscapes[c]; ok {
		b.WriteByte(r)
		p.pos += 2
		return nil
	}
	if c != 'u' {
		return p.errorf("invalid escape %q", "\\"+string(c))
	}
	r, err := p.hex4()
	if err != nil {
		return err
	}
	switch {
	case utf16.IsSurrogate(r) && r < 0xdc00:
		// A high surrogate must be followed at once by an escaped low one.
		if p.pos+1 >= len(p.in) || p.in[p.pos] != '\\' || p.in[p.pos+1] != 'u' {
			return p.errorf("unpaired surrogate \\u%04x", r)
		}
		lo, err := p.hex4()
		if err != nil {
			return err
		}
		if lo < 0xdc00 || lo > 0xdfff {
			return p.errorf("unpaired surrogate \\u%04x", r)
		}
		b.WriteRune(utf16.DecodeRune(r, lo))
	case utf16.IsSurrogate(r):
		return p.errorf("unpaired surrogate \\u%04x", r)
	default:
		b.WriteRune(r)
	}
	return nil
}

// hex4 reads a "\uXXXX" escape at pos.
func (p *parser) hex4() (rune, error) {
	if p.pos+6 > len(p.in) {
		return 0, p.errorf("truncated \\u escape")
	}
	v, err := strconv.ParseUint(string(p.in[p.pos+2:p.pos+6]), 16, 16)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.in[p.pos:p.pos+6])
	}
	p.pos += 6
	return rune(v), nil
}

// number checks the RFC 8259 number grammar (strconv alone would accept
// "+1", "0x10", "1_0", ".5", "Inf") and rewrites the value in ECMAScript
// form. A magnitude beyond the largest double is refused rather than
// turned into a number JSON cannot carry; underflow rounds towards zero as
// any IEEE 754 reader would.
func (p *parser) number(out []byte) ([]byte, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.in[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.in) && p.in[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return nil, p.errorf("invalid number")
	}
	if p.pos < len(p.in) && p.in[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("invalid number: no digits after '.'")
		}
	}
	if p.pos < len(p.in) && (p.in[p.pos] == 'e' || p.in[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.in) && (p.in[p.pos] == '+' || p.in[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number: no digits in exponent")
		}
	}
	text := string(p.in[start:p.pos])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, p.errorf("number %s is outside the range of a double", text)
	}
	s, err := FormatNumber(f)
	if err != nil {
		return nil, p.errorf("%v", err)
	}
	return append(out, s...), nil
}
