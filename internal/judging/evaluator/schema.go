package evaluator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Keywords lists every keyword a schema may use: those of JSON Schema
// 2020-12 and the older drafts' spellings the validator also implements
// (santhosh-tekuri/jsonschema). A keyword outside it — a typo such as
// "requried", or a vocabulary of someone else's — is an error at load,
// never silently ignored as the standard would have it.
var Keywords = []string{
	// core
	"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
	"definitions", "$recursiveRef", "$recursiveAnchor", "id",
	// applicator
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
	"prefixItems", "items", "additionalItems", "contains", "properties", "patternProperties",
	"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
	// validation
	"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
	"minContains", "maxProperties", "minProperties", "required", "dependentRequired",
	// format (asserted), meta-data (annotations)
	"format", "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
}

// Formats are the values of "format" the validator checks; any other
// would be an assertion that never fails, so it is an error at load.
var Formats = []string{"date", "date-time", "time", "duration", "period", "email", "hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "uri-template", "iri", "iri-reference", "uuid",
	"json-pointer", "relative-json-pointer", "regex", "semver"}

// Subschema positions, by the shape of the keyword's value.
var (
	oneSchema   = []string{"not", "if", "then", "else", "additionalItems", "contains", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties"}
	schemaList  = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMap   = []string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas"}
	dataOnlyKey = []string{"enum", "const", "default", "examples"}
)

// loadSchema reads e's schema (inline or from its file under root) and
// checks it here, without the helper: JSON within the nesting bound, and
// known keywords and formats only. where is how errors name it.
func loadSchema(e rubric.Evaluator, root string) (raw []byte, where string, err error) {
	raw, where = []byte(e.Schema), "schema"
	if e.SchemaFile != "" {
		where = "schema_file " + e.SchemaFile
		data, err := readInRoot(root, e.SchemaFile)
		if err != nil {
			return nil, where, fmt.Errorf("%s: %w", where, err)
		}
		raw = data
	}
	if err := nesting.JSON(raw); err != nil {
		return nil, where, fmt.Errorf("%s: %w", where, err)
	}
	doc, err := schemaproto.Decode(raw)
	if err != nil {
		return nil, where, fmt.Errorf("%s: not valid JSON: %w", where, err)
	}
	if err := checkKeywords(doc, "#"); err != nil {
		return nil, where, fmt.Errorf("%s: %w", where, err)
	}
	return raw, where, nil
}

// checkKeywords walks every subschema of v (at JSON pointer at) and
// reports the first keyword not in Keywords.
func checkKeywords(v any, at string) error {
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool {
			return nil
		}
		return fmt.Errorf("%s: a schema must be an object or a boolean", at)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(Keywords, k) {
			return fmt.Errorf("%s: unsupported keyword %q%s", at, k, safetext.DidYouMean(k, Keywords, func(s string) string { return `"` + s + `"` }))
		}
		if slices.Contains(dataOnlyKey, k) {
			continue
		}
		if f, isString := obj[k].(string); k == "format" && (!isString || !slices.Contains(Formats, f)) {
			return fmt.Errorf("%s: unsupported format %v (the formats checked: %s)", at, obj[k], strings.Join(Formats, ", "))
		}
		if err := checkChildren(k, obj[k], at+"/"+k); err != nil {
			return err
		}
	}
	return nil
}

// checkChildren checks the subschemas the value of keyword k holds.
func checkChildren(k string, v any, at string) error {
	switch {
	case slices.Contains(oneSchema, k):
		return checkKeywords(v, at)
	case k == "items":
		if list, ok := v.([]any); ok {
			return checkEach(list, at)
		}
		return checkKeywords(v, at)
	case slices.Contains(schemaList, k):
		list, _ := v.([]any)
		return checkEach(list, at)
	case slices.Contains(schemaMap, k), k == "dependencies":
		m, _ := v.(map[string]any)
		names := make([]string, 0, len(m))
		for name := range m {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if _, isList := m[name].([]any); isList && k == "dependencies" {
				continue // a property dependency, not a schema
			}
			if err := checkKeywords(m[name], at+"/"+name); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkEach(list []any, at string) error {
	for i, item := range list {
		if err := checkKeywords(item, fmt.Sprintf("%s/%d", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// readInRoot reads rel under dir, never leaving it (a symlink out of the
// worktree is refused), bounded.
func readInRoot(dir, rel string) ([]byte, error) {
	if dir == "" {
		return nil, errors.New("no repository to read it from")
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, err := readRoot(root, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no such file in %s", dir)
	}
	return data, err
}

// readRoot reads the regular file rel inside root, at most maxFileBytes.
func readRoot(root *os.Root, rel string) ([]byte, error) {
	if root == nil {
		return nil, errors.New("no worktree to read from")
	}
	// A regular file only, opened without waiting: a FIFO at the path
	// would otherwise hang the whole run in open(2).
	return store.ReadRegularIn(root, filepath.FromSlash(rel), maxFileBytes)
}
