package evaluator

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// Schema is one JSON Schema compiled under the evaluators' rules
// (self-contained, known keywords and formats only): what `judge
// --schema` holds a JSON answer to, so an answer and a changed file are
// checked by the one validator.
type Schema struct {
	v      schemaproto.Validator
	name   string
	source []byte
}

// CompileSchema has v compile raw, a schema as a file holds it; name
// appears in nothing but the compiler's invented URL. Its error says why
// the schema cannot be used.
func CompileSchema(ctx context.Context, v schemaproto.Validator, name string, raw []byte) (*Schema, error) {
	src, where, err := loadSchema(rubric.Evaluator{Name: name, Schema: bytes.Clone(raw)}, "")
	if err != nil {
		return nil, err
	}
	s := &Schema{v: v, name: name, source: src}
	res, err := validate(ctx, v, &schemaproto.Request{Schemas: []schemaproto.Schema{{Name: name, Source: src}}})
	if err != nil {
		return nil, err
	}
	if msg := res.Schemas[0].Error; msg != "" {
		return nil, fmt.Errorf("%s: %s", where, msg)
	}
	return s, nil
}

// Check validates data, a JSON document, in one run of the helper; the
// error is one line.
func (s *Schema) Check(ctx context.Context, data []byte) error {
	if err := nesting.JSON(data); err != nil {
		return errors.New("not valid JSON: " + schemaproto.Flatten(err.Error(), false))
	}
	req := &schemaproto.Request{Schemas: []schemaproto.Schema{{Name: s.name, Source: s.source}},
		Documents: []schemaproto.Document{{Data: data}}}
	res, err := validate(ctx, s.v, req)
	if err != nil {
		return fmt.Errorf("cannot be validated: %w", err)
	}
	if msg := res.Documents[0].Error; msg != "" {
		return errors.New(msg)
	}
	return nil
}

// CheckJSON is Check against the schema that holds every document: the
// syntax alone, judged here, with no helper to run.
func CheckJSON(data []byte) error {
	err := nesting.JSON(data)
	if err == nil {
		_, err = schemaproto.Decode(data)
	}
	if err != nil {
		return errors.New("not valid JSON: " + schemaproto.Flatten(err.Error(), false))
	}
	return nil
}
