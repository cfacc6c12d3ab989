package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is one value of a configuration layer. Objects are split into
// children so layers can be merged key by key and each key remembers which
// file supplied it; every other value stays raw JSON, so arrays and numbers
// pass through the merge byte for byte.
type node struct {
	keys []string         // object keys in document order
	kids map[string]*node // non-nil exactly when the value is an object
	raw  json.RawMessage  // the value when it is not an object
	src  string           // the file that supplied this value
}

// parseNode parses one JSON document. The caller has already checked that
// data is valid JSON, so errors here are unexpected but still returned.
func parseNode(data []byte, src string) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec, data, src)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the top-level value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder, data []byte, src string) (*node, error) {
	if peek(data, dec.InputOffset()) != '{' {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		return &node{raw: raw, src: src}, nil
	}
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, err
	}
	n := &node{kids: map[string]*node{}, src: src}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected token %v", tok)
		}
		child, err := decodeNode(dec, data, src)
		if err != nil {
			return nil, err
		}
		// A repeated key keeps its first position and its last value, as
		// encoding/json would decode it.
		n.set(key, child)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return n, nil
}

// peek returns the first byte of the next value at or after off, skipping
// the whitespace and separators that json.Decoder has not consumed yet.
func peek(data []byte, off int64) byte {
	for i := off; i < int64(len(data)); i++ {
		switch c := data[i]; c {
		case ' ', '\t', '\n', '\r', ':', ',':
		default:
			return c
		}
	}
	return 0
}

func (n *node) isObject() bool { return n != nil && n.kids != nil }

// isNull reports a JSON null, which every layer treats as "unset".
func (n *node) isNull() bool { return n == nil || (n.kids == nil && string(n.raw) == "null") }

// get returns the child at key, or nil when n is not an object or lacks it.
func (n *node) get(key string) *node {
	if !n.isObject() {
		return nil
	}
	return n.kids[key]
}

// at walks a path of object keys.
func (n *node) at(path ...string) *node {
	for _, k := range path {
		n = n.get(k)
	}
	return n
}

func (n *node) set(key string, v *node) {
	if _, ok := n.kids[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.kids[key] = v
}

func (n *node) del(key string) {
	if _, ok := n.kids[key]; !ok {
		return
	}
	delete(n.kids, key)
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			break
		}
	}
}

// merge lays b over a with the semantics of spec §2.2 rule 3: two objects merge
// key by key; a null or absent b keeps a; anything else in b replaces a
// whole, so arrays are never concatenated and false and 0 survive. a may
// be modified and is returned.
func merge(a, b *node) *node {
	if b.isNull() {
		return a
	}
	if !a.isObject() || !b.isObject() {
		return b
	}
	for _, k := range b.keys {
		if m := merge(a.kids[k], b.kids[k]); m != nil {
			a.set(k, m)
		}
	}
	return a
}

// clone is a deep copy of n, so that a merge to look at cannot change
// the layers the real merge uses.
func (n *node) clone() *node {
	if n == nil {
		return nil
	}
	c := &node{keys: append([]string(nil), n.keys...), raw: n.raw, src: n.src}
	if n.kids != nil {
		c.kids = make(map[string]*node, len(n.kids))
		for k, v := range n.kids {
			c.kids[k] = v.clone()
		}
	}
	return c
}

func cloneAll(ns []*node) []*node {
	out := make([]*node, len(ns))
	for i, n := range ns {
		out[i] = n.clone()
	}
	return out
}

// appendJSON renders n as compact JSON, objects in key order.
func (n *node) appendJSON(buf *bytes.Buffer) {
	if !n.isObject() {
		if json.Compact(buf, n.raw) != nil {
			buf.Write(n.raw)
		}
		return
	}
	buf.WriteByte('{')
	for i, k := range n.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(k) // marshalling a string cannot fail
		buf.Write(key)
		buf.WriteByte(':')
		n.kids[k].appendJSON(buf)
	}
	buf.WriteByte('}')
}

// checkJSON returns "" for valid JSON, else a description of the first
// syntax error with its line and column.
func checkJSON(data []byte) string {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	if err == nil {
		return ""
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON: %v", err)
	}
	// Offset counts the offending byte itself.
	pos := int(min(max(se.Offset-1, 0), int64(len(data))))
	before := data[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	col := pos - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)
}
