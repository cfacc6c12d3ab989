// Package schemacheck validates Onlooker event lines against embedded copies
// of the envelope and tribunal payload schemas, for tests across the repo.
package schemacheck

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schemas are data kept in testdata (see testdata/README.md for where
// they are published and which version this is), so the repository alone
// is enough to validate events; a missing file fails the build.
//
//go:embed testdata/event.v1.json testdata/tribunal-payloads.json
var schemaFS embed.FS

const (
	envelopeFile = "testdata/event.v1.json"
	payloadsFile = "testdata/tribunal-payloads.json"
)

// schemas holds the compiled envelope and one compiled schema per tribunal
// event type, keyed by event_type.
type schemas struct {
	envelope *jsonschema.Schema
	payloads map[string]*jsonschema.Schema
}

// load compiles once per process: compilation dominates a single check, and
// the result is read-only so sharing it between parallel tests is safe.
var load = sync.OnceValues(compile)

func compile() (*schemas, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	envURL, err := addResource(c, envelopeFile)
	if err != nil {
		return nil, err
	}
	payURL, err := addResource(c, payloadsFile)
	if err != nil {
		return nil, err
	}
	s := &schemas{payloads: map[string]*jsonschema.Schema{}}
	if s.envelope, err = c.Compile(envURL); err != nil {
		return nil, fmt.Errorf("compile %s: %w", envelopeFile, err)
	}
	types, err := defsKeys()
	if err != nil {
		return nil, err
	}
	for _, t := range types {
		ref := payURL + "#/$defs/" + escapePointer(t)
		if s.payloads[t], err = c.Compile(ref); err != nil {
			return nil, fmt.Errorf("compile %q: %w", ref, err)
		}
	}
	return s, nil
}

// addResource registers an embedded schema under its own $id, so nothing is
// ever fetched over the network.
func addResource(c *jsonschema.Compiler, name string) (string, error) {
	raw, err := schemaFS.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read embedded %s: %w", name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("parse embedded %s: %w", name, err)
	}
	obj, _ := doc.(map[string]any)
	id, _ := obj["$id"].(string)
	if id == "" {
		return "", fmt.Errorf("embedded %s has no $id", name)
	}
	if err := c.AddResource(id, doc); err != nil {
		return "", fmt.Errorf("add %s: %w", name, err)
	}
	return id, nil
}

// defsKeys lists the payload schema's $defs keys, sorted.
func defsKeys() ([]string, error) {
	raw, err := schemaFS.ReadFile(payloadsFile)
	if err != nil {
		return nil, fmt.Errorf("read embedded %s: %w", payloadsFile, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse embedded %s: %w", payloadsFile, err)
	}
	obj, _ := doc.(map[string]any)
	defs, ok := obj["$defs"].(map[string]any)
	if !ok || len(defs) == 0 {
		return nil, fmt.Errorf("embedded %s has no $defs", payloadsFile)
	}
	keys := make([]string, 0, len(defs))
	for k := range defs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// EventTypes returns the tribunal event types the payload schema defines
// (the keys of its $defs), sorted; nil if the embedded schemas do not
// compile, in which case ValidateLine reports why.
func EventTypes() []string {
	s, err := load()
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(s.payloads))
	for k := range s.payloads {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ValidateLine checks one log line: a single JSON object (an optional
// trailing "\n" is allowed, no other line break) in valid UTF-8 without
// duplicate keys, that satisfies event.v1.json, whose event_type is one of
// the tribunal types and whose payload satisfies that type's $defs schema.
func ValidateLine(line []byte) error {
	s, err := load()
	if err != nil {
		return fmt.Errorf("schemacheck: %w", err)
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	switch {
	case len(bytes.TrimSpace(line)) == 0:
		return errors.New("empty line")
	case bytes.ContainsAny(line, "\r\n"):
		return errors.New("line contains a line break")
	case !utf8.Valid(line):
		return errors.New("line is not valid UTF-8")
	}
	if err := checkDuplicateKeys(line); err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return errors.New("line is not a JSON object")
	}
	if err := s.envelope.Validate(doc); err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	eventType, _ := obj["event_type"].(string)
	payload, ok := s.payloads[eventType]
	if !ok {
		return fmt.Errorf("event_type %q is not a tribunal event type", eventType)
	}
	if err := payload.Validate(obj["payload"]); err != nil {
		return fmt.Errorf("%s payload: %w", eventType, err)
	}
	return nil
}

// ValidateLog validates every line of a JSONL file and returns how many
// lines passed (on error, how many passed before the bad one). The file must
// end with "\n": a missing final newline is what a torn append leaves
// behind. Errors name the 1-based line number.
func ValidateLog(path string) (n int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("open log: %w", err)
	}
	defer f.Close()
	// bufio.Reader rather than Scanner: Scanner's token cap would reject a
	// long but legitimate line.
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			n++
			if line[len(line)-1] != '\n' {
				return n - 1, fmt.Errorf("%s: line %d: no trailing newline (torn write?)", path, n)
			}
			if verr := ValidateLine(line); verr != nil {
				return n - 1, fmt.Errorf("%s: line %d: %w", path, n, verr)
			}
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("%s: read after line %d: %w", path, n, err)
		}
	}
}
