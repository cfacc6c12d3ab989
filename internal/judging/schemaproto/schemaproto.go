// Package schemaproto is the one exchange between tribunal-session and
// its tribunal-schema helper program — a JSON request on standard input,
// a JSON response on standard output — with the bounds both sides hold.
package schemaproto

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Program is the helper's name, found beside the running binary only
// (proc.Helper).
const Program = "tribunal-schema"

// Base is the URL a schema is compiled under (Base + name + ".json").
// Nothing is ever fetched from it: the helper refuses every URL, so a
// schema is self-contained ($ref only to its own $defs and anchors).
const Base = "https://evaluators.tribunal.invalid/"

// Bounds on one exchange.
const (
	// MaxItemBytes bounds a schema and a document: the evaluators read
	// no larger file, so a larger item is refused rather than validated.
	MaxItemBytes = 4 << 20
	// MaxRequestBytes bounds a request as encoded; a client splits a
	// round's documents into requests under it.
	MaxRequestBytes = 64 << 20
	// MaxMessageBytes bounds one error in a response: the helper cuts a
	// longer one (a finding keeps far less, severity.MaxMessageBytes).
	MaxMessageBytes = 64 << 10
	// itemOverhead is an item's encoding beyond its base64 bytes: field
	// names, the schema index, punctuation.
	itemOverhead = 64
)

// Schema is one schema to compile: Name makes its URL, Source is the
// schema as read (already checked as JSON with known keywords only).
type Schema struct {
	Name   string `json:"name"`
	Source []byte `json:"source"`
}

// Document is one JSON document (a changed file, an answer) to validate
// against Schemas[Schema]. Data is the bytes as read, base64 on the wire:
// a file need not be valid UTF-8, nor JSON.
type Document struct {
	Schema int    `json:"schema"`
	Data   []byte `json:"data"`
}

// Request is every schema of one rubric load or one judging round, and
// the documents to validate against them.
type Request struct {
	Schemas   []Schema   `json:"schemas"`
	Documents []Document `json:"documents,omitempty"`
}

// Result is one schema's or one document's outcome: Error "" is ok.
type Result struct {
	Error string `json:"error,omitempty"`
}

// Response answers a Request item by item, in its order: a schema's
// Error is why it does not compile; a document's is its one-line failure
// ("not valid JSON: …" or "does not satisfy the schema: …").
type Response struct {
	Schemas   []Result `json:"schemas"`
	Documents []Result `json:"documents"`
}

// Validator answers a Request: Helper runs the tribunal-schema program;
// tests may answer in-process.
type Validator interface {
	Validate(ctx context.Context, req *Request) (*Response, error)
}

// ItemSize is what an item of n bytes (and a name of name bytes) adds to
// an encoded request, at most.
func ItemSize(name, n int) int {
	return base64.StdEncoding.EncodedLen(n) + 6*name + itemOverhead
}

// Size is the most r takes encoded.
func (r *Request) Size() int {
	size := itemOverhead
	for _, s := range r.Schemas {
		size += ItemSize(len(s.Name), len(s.Source))
	}
	for _, d := range r.Documents {
		size += ItemSize(0, len(d.Data))
	}
	return size
}

// Check refuses a request the helper would: no schema, an item over
// MaxItemBytes, a document naming no schema, or the whole over
// MaxRequestBytes.
func (r *Request) Check() error {
	if len(r.Schemas) == 0 {
		return errors.New("the request has no schema")
	}
	for i, s := range r.Schemas {
		if s.Name == "" {
			return fmt.Errorf("schema %d has no name", i)
		}
		if len(s.Source) > MaxItemBytes {
			return fmt.Errorf("schema %s is over %d bytes", s.Name, MaxItemBytes)
		}
	}
	for i, d := range r.Documents {
		if d.Schema < 0 || d.Schema >= len(r.Schemas) {
			return fmt.Errorf("document %d names schema %d of %d", i, d.Schema, len(r.Schemas))
		}
		if len(d.Data) > MaxItemBytes {
			return fmt.Errorf("document %d is over %d bytes", i, MaxItemBytes)
		}
	}
	if n := r.Size(); n > MaxRequestBytes {
		return fmt.Errorf("the request is over %d bytes (%d)", MaxRequestBytes, n)
	}
	return nil
}

// EncodeRequest is r on the wire, checked first.
func EncodeRequest(r *Request) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// ReadRequest reads and checks one request, at most MaxRequestBytes.
func ReadRequest(in io.Reader) (*Request, error) {
	data, err := io.ReadAll(io.LimitReader(in, MaxRequestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read the request: %w", err)
	}
	if len(data) > MaxRequestBytes {
		return nil, fmt.Errorf("the request is over %d bytes", MaxRequestBytes)
	}
	var r Request
	if err := strictDecode(data, &r); err != nil {
		return nil, fmt.Errorf("the request is not one: %w", err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// ResponseLimit is the most a response to r may take: every item's
// error at MaxMessageBytes, each byte escaped at worst (\u00XX).
func ResponseLimit(r *Request) int {
	return (len(r.Schemas)+len(r.Documents))*(6*MaxMessageBytes+itemOverhead) + 4096
}

// WriteResponse writes res as one line, HTML characters unescaped.
func WriteResponse(w io.Writer, res *Response) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

// DecodeResponse reads the answer to r: one result per item, each error
// within MaxMessageBytes.
func DecodeResponse(r *Request, data []byte) (*Response, error) {
	if len(data) > ResponseLimit(r) {
		return nil, fmt.Errorf("its answer is over %d bytes", ResponseLimit(r))
	}
	var res Response
	if err := strictDecode(data, &res); err != nil {
		return nil, fmt.Errorf("its answer is not one: %w", err)
	}
	if len(res.Schemas) != len(r.Schemas) || len(res.Documents) != len(r.Documents) {
		return nil, fmt.Errorf("it answered %d schema(s) and %d document(s), asked %d and %d",
			len(res.Schemas), len(res.Documents), len(r.Schemas), len(r.Documents))
	}
	for _, list := range [][]Result{res.Schemas, res.Documents} {
		for _, item := range list {
			if len(item.Error) > MaxMessageBytes {
				return nil, fmt.Errorf("its answer has an error over %d bytes", MaxMessageBytes)
			}
		}
	}
	return &res, nil
}

// strictDecode decodes exactly one JSON value with no unknown field.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one value")
	}
	return nil
}

// Decode reads one JSON document exactly as the validator does (numbers
// kept exact, nothing after the value), so that a schema's keywords are
// checked, and an answer's syntax judged, without the helper; its errors
// are the validator's.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil || err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return doc, nil
}

// Flatten makes an error's text one line: its lines trimmed of space and
// a list's "- ", joined with "; ", the invented Base dropped. detail
// drops the first line, which for a validation error names only Base.
func Flatten(text string, detail bool) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if detail && len(lines) > 1 {
		lines = lines[1:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
	}
	return strings.ReplaceAll(strings.Join(lines, "; "), Base, "")
}
