// Package nesting bounds how deeply arrays and objects nest in a JSON or
// TOML document before any recursive parser sees it.
package nesting

import (
	"bytes"
	"errors"
	"fmt"
)

// Max is the deepest nesting tribunal accepts anywhere: hook stdin,
// settings, rubrics, verdicts, ledger lines. No document tribunal reads or
// writes comes near it, and a recursive parser handed a few megabytes of
// "[" would otherwise exhaust its stack and kill the process (Go does not
// recover from a stack overflow), which for a hook means exit 2.
const Max = 1000

// ErrTooDeep is wrapped by the error JSON and TOML return for a document
// nested deeper than Max.
var ErrTooDeep = errors.New("nesting too deep")

// JSON checks that no array or object in data is nested deeper than Max.
// It counts brackets outside strings in one pass without recursion and
// without validating anything else: syntax is the parser's job, and a
// malformed document is never reported deeper than it would parse.
func JSON(data []byte) error {
	return scan(data, func(data []byte, i int) int {
		if data[i] == '"' {
			return skipBasic(data, i+1, false)
		}
		return i
	})
}

// TOML is JSON for a TOML document: arrays, inline tables and table
// headers count as nesting; brackets inside the four kinds of string and
// inside comments do not.
func TOML(data []byte) error {
	return scan(data, func(data []byte, i int) int {
		switch c := data[i]; {
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case (c == '"' || c == '\'') && bytes.HasPrefix(data[i:], []byte{c, c, c}):
			i = skipMultiline(data, i+3, c)
		case c == '"':
			i = skipBasic(data, i+1, true)
		case c == '\'':
			i = skipLiteral(data, i+1)
		}
		return i
	})
}

// scan counts bracket depth over data; skip returns, for the byte at i,
// the index of the last byte of the string or comment starting there (i
// itself when none does), whose brackets do not count.
func scan(data []byte, skip func(data []byte, i int) int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		i = skip(data, i)
		if i >= len(data) {
			break
		}
		switch data[i] {
		case '[', '{':
			depth++
			if depth > Max {
				return tooDeep(data, i)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// skipBasic returns the index of the quote closing a "…" string whose
// content starts at i (backslash escapes the next byte), or the index of
// the line's end when oneLine (TOML basic strings cannot span lines), or
// len(data).
func skipBasic(data []byte, i int, oneLine bool) int {
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i
		case '\n':
			if oneLine {
				return i
			}
		}
	}
	return len(data)
}

// skipLiteral returns the index ending a TOML '…' string (no escapes, one
// line) whose content starts at i.
func skipLiteral(data []byte, i int) int {
	for ; i < len(data); i++ {
		if data[i] == '\'' || data[i] == '\n' {
			return i
		}
	}
	return len(data)
}

// skipMultiline returns the index of the last quote closing a TOML
// multi-line string (three quotes, basic or literal) whose content starts
// at i. Up to two further quotes right before the closing three belong to
// the content ("""a""""" is a""), so they are consumed too.
func skipMultiline(data []byte, i int, q byte) int {
	for ; i < len(data); i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case data[i] == q && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
			end := i + 2
			for k := 0; k < 2 && end+1 < len(data) && data[end+1] == q; k++ {
				end++
			}
			return end
		}
	}
	return len(data)
}

func tooDeep(data []byte, off int) error {
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Errorf("%w: more than %d levels at line %d, column %d", ErrTooDeep, Max, line, col)
}
