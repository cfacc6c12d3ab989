// Package schemaengine compiles JSON Schemas and validates documents with
// santhosh-tekuri/jsonschema under the evaluators' rules — draft 2020-12
// by default, formats asserted, nothing loaded — answering one
// schemaproto request: the tribunal-schema program, the one binary that
// links it, so that no other command pays for its initialisation.
package schemaengine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Main is the tribunal-schema program: one request on in, one response
// on out; a refused request is exit 2 with the reason on errw.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	say := output.Session{W: errw}
	if len(args) > 0 {
		say.Errorf("%s takes no arguments", schemaproto.Program)
		say.Hint("tribunal-session runs it, with a request on standard input")
		return 2
	}
	req, err := schemaproto.ReadRequest(in)
	if err != nil {
		say.Errorf("%s: %v", schemaproto.Program, err)
		return 2
	}
	if err := schemaproto.WriteResponse(out, Answer(req)); err != nil {
		say.Errorf("%s: write the response: %v", schemaproto.Program, err)
		return 1
	}
	return 0
}

// Local answers in this process: what tests use in place of the program.
type Local struct{}

// Validate checks req as the program does and answers it.
func (Local) Validate(_ context.Context, req *schemaproto.Request) (*schemaproto.Response, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	return Answer(req), nil
}

// Answer compiles every schema of req, each on its own (one evaluator's
// schema cannot refer to another's), and validates every document.
func Answer(req *schemaproto.Request) *schemaproto.Response {
	res := &schemaproto.Response{Schemas: make([]schemaproto.Result, len(req.Schemas)), Documents: make([]schemaproto.Result, len(req.Documents))}
	compiled := make([]*jsonschema.Schema, len(req.Schemas))
	for i, s := range req.Schemas {
		sch, err := compile(s)
		if err != nil {
			res.Schemas[i].Error = clip(err.Error())
			continue
		}
		compiled[i] = sch
	}
	for i, d := range req.Documents {
		if compiled[d.Schema] == nil {
			res.Documents[i].Error = clip("the schema does not compile: " + res.Schemas[d.Schema].Error)
			continue
		}
		res.Documents[i].Error = clip(validate(compiled[d.Schema], d.Data))
	}
	return res
}

// noLoader refuses every $ref outside the schema itself.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("$ref to %s: schemas must be self-contained (nothing is loaded from files or the network)", url)
}

// compile compiles one schema; the error is worded as a rubric's user
// reads it after "evaluator NAME: schema: ".
func compile(s schemaproto.Schema) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s.Source))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	url := schemaproto.Base + s.Name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %s", oneLineError(err))
	}
	return sch, nil
}

// validate is a document's one-line failure, "" when it satisfies sch.
func validate(sch *jsonschema.Schema, data []byte) string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err == nil {
		err = nesting.JSON(data)
	}
	if err != nil {
		return "not valid JSON: " + oneLineError(err)
	}
	if err := sch.Validate(doc); err != nil {
		return "does not satisfy the schema: " + oneLineError(err)
	}
	return ""
}

// oneLineError flattens a validator's multi-line error: a validation
// error's first line only names the invented URL.
func oneLineError(err error) string {
	var ve *jsonschema.ValidationError
	return schemaproto.Flatten(err.Error(), errors.As(err, &ve))
}

func clip(s string) string { return safetext.Clip(s, schemaproto.MaxMessageBytes) }
