package evaluator

import (
	"bytes"
	"errors"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// Schema is one JSON Schema compiled under the evaluators' rules
// (self-contained, known keywords and formats only): what `judge
// --schema` holds a JSON answer to, so an answer and a changed file are
// checked by the one validator.
type Schema struct{ s *jsonschema.Schema }

// CompileSchema compiles raw, a schema as a file holds it; name appears
// in nothing but the compiler's invented URL. Its error says why the
// schema cannot be used.
func CompileSchema(name string, raw []byte) (*Schema, error) {
	sch, _, err := compileSchema(rubric.Evaluator{Name: name, Schema: bytes.Clone(raw)}, "")
	if err != nil {
		return nil, err
	}
	return &Schema{s: sch}, nil
}

// Check validates data, a JSON document; the error is one line.
func (s *Schema) Check(data []byte) error {
	if err := nesting.JSON(data); err != nil {
		return errors.New("not valid JSON: " + oneLineError(err))
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return errors.New("not valid JSON: " + oneLineError(err))
	}
	if err := s.s.Validate(doc); err != nil {
		return errors.New("does not satisfy the schema: " + oneLineError(err))
	}
	return nil
}
