// Package jcs canonicalises JSON text as RFC 8785 (the JSON
// Canonicalization Scheme) defines, so that equal documents hash and sign
// identically.
package jcs

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// ErrInvalid marks input that is not JSON, or JSON that RFC 8785 cannot
// canonicalise (duplicate member names, lone surrogates, numbers outside
// IEEE 754 double precision). Every error Canonicalize returns wraps it.
var ErrInvalid = errors.New("invalid input for JSON canonicalization")

// Canonicalize returns the RFC 8785 canonical form of the single JSON value
// in: no insignificant whitespace, object members sorted by the UTF-16 code
// units of their names, strings with only the mandatory escapes, and numbers
// written by ECMAScript's Number-to-String algorithm. Input that is not
// strict RFC 8259 JSON, repeats a member name (after unescaping), contains
// invalid UTF-8 or an unpaired surrogate escape, or holds a number too large
// for a double, is rejected with an error wrapping ErrInvalid.
func Canonicalize(in []byte) ([]byte, error) {
	p := &parser{in: in}
	p.skipSpace()
	out, err := p.value(make([]byte, 0, len(in)), 0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.in) {
		return nil, p.errorf("unexpected data after the JSON value")
	}
	return out, nil
}

// appendString writes s as RFC 8785 §3.2.2.2 requires: the ECMAScript
// JSON.stringify rules, which escape only the quote, the backslash and the
// C0 controls (with the five short forms where they exist, otherwise
// \u00xx in lower-case hex) and leave every other character, including
// U+007F and U+2028, as raw UTF-8.
func appendString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			out = append(out, '\\', '"')
		case c == '\\':
			out = append(out, '\\', '\\')
		case c >= 0x20:
			out = append(out, c)
		case c == '\b':
			out = append(out, '\\', 'b')
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\f':
			out = append(out, '\\', 'f')
		case c == '\r':
			out = append(out, '\\', 'r')
		default:
			out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
	}
	return append(out, '"')
}

// FormatNumber writes f as ECMAScript's Number::toString does (ECMA-262
// §7.1.12.1, which RFC 8785 §3.2.2.3 adopts): the shortest digit string
// that reads back as f, in plain notation for decimal exponents from -7 to
// 21 and in "d.ddde±x" notation outside that range; negative zero is "0".
// NaN and the infinities have no JSON form and yield an error.
func FormatNumber(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", errors.New("NaN and infinity have no JSON representation")
	}
	if f == 0 {
		return "0", nil
	}
	var b strings.Builder
	if f < 0 {
		b.WriteByte('-')
		f = -f
	}
	// Go's shortest round-trip formatting picks the same digits as
	// ECMAScript (shortest, then closest to the exact value); only the
	// layout differs. 'e' gives "d.ddde±xx": digits s and exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1 // the ECMAScript n: the value is 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", n-k))
	case 0 < n && n <= 21:
		b.WriteString(digits[:n])
		b.WriteByte('.')
		b.WriteString(digits[n:])
	case -6 < n && n <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -n))
		b.WriteString(digits)
	default:
		b.WriteByte(digits[0])
		if k > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if n-1 >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(n - 1))
	}
	return b.String(), nil
}

// member is one parsed object member: its unescaped name, the name as
// UTF-16 code units (the RFC 8785 sort key) and its canonical value.
type member struct {
	name  string
	units []uint16
	value []byte
}

// appendObject sorts members by UTF-16 code units, which differs from
// UTF-8 byte order for characters above U+FFFF versus U+E000–U+FFFF, and
// rejects a repeated name: RFC 8785 requires I-JSON input, where a
// duplicate would make the canonical form depend on the parser.
func (p *parser) appendObject(out []byte, ms []member) ([]byte, error) {
	slices.SortStableFunc(ms, func(a, b member) int { return slices.Compare(a.units, b.units) })
	out = append(out, '{')
	for i, m := range ms {
		if i > 0 {
			if slices.Equal(ms[i-1].units, m.units) {
				return nil, p.errorf("duplicate member name %q", m.name)
			}
			out = append(out, ',')
		}
		out = appendString(out, m.name)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), nil
}

func utf16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }
