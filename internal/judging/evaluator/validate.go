package evaluator

import (
	"context"
	"fmt"
	"os"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
)

// validate asks v, refusing a nil one as a missing helper.
func validate(ctx context.Context, v schemaproto.Validator, req *schemaproto.Request) (*schemaproto.Response, error) {
	if v == nil {
		return nil, &schemaproto.MissingError{}
	}
	return v.Validate(ctx, req)
}

// checked is one changed file a json_schema evaluator selected: message
// is its failure, "" when it satisfies the schema.
type checked struct {
	file    string
	message string
}

// batch gathers a round's documents into requests under
// schemaproto.MaxRequestBytes: one run of the helper for a round, more
// only for a change whose selected files are larger than that together.
type batch struct {
	ctx     context.Context
	v       schemaproto.Validator
	req     schemaproto.Request
	size    int
	targets []*checked
}

func (b *batch) add(schema int, data []byte, to *checked) {
	n := schemaproto.ItemSize(0, len(data))
	if len(b.targets) > 0 && b.size+n > schemaproto.MaxRequestBytes {
		b.flush()
	}
	b.req.Documents = append(b.req.Documents, schemaproto.Document{Schema: schema, Data: data})
	b.targets = append(b.targets, to)
	b.size += n
}

// flush validates the documents gathered; a helper that fails fails each
// of them, so that a required evaluator blocks rather than passes.
func (b *batch) flush() {
	if len(b.targets) == 0 {
		return
	}
	res, err := validate(b.ctx, b.v, &b.req)
	for i, t := range b.targets {
		if err != nil {
			t.message = "cannot validate: " + err.Error()
		} else {
			t.message = res.Documents[i].Error
		}
	}
	b.req.Documents, b.targets = nil, nil
	b.size = b.req.Size()
}

// runSchemas reads every changed file a json_schema evaluator selects
// and validates them all; the result is indexed as s.evals.
func (s *Set) runSchemas(ctx context.Context, files []unidiff.File, root *os.Root) [][]*checked {
	b := &batch{ctx: ctx, v: s.v}
	b.req.Schemas = s.schemas()
	if len(b.req.Schemas) == 0 {
		return nil
	}
	b.size = b.req.Size()
	out := make([][]*checked, len(s.evals))
	for i, e := range s.evals {
		if e.schema < 0 {
			continue
		}
		for _, f := range files {
			if f.NewPath == "" || !e.Paths.Match(f.NewPath) {
				continue
			}
			c := &checked{file: f.NewPath}
			out[i] = append(out[i], c)
			data, err := readRoot(root, f.NewPath)
			if err != nil {
				c.message = "cannot read: " + err.Error()
				continue
			}
			b.add(e.schema, data, c)
		}
	}
	b.flush()
	return out
}

// schemaSummary is a json_schema evaluator's outcome over the files it
// selected.
func (e compiled) schemaSummary(files []*checked) (string, []failure) {
	var fails []failure
	for _, c := range files {
		if c.message != "" {
			fails = append(fails, failure{file: c.file, message: c.message})
		}
	}
	switch {
	case len(files) == 0:
		return "no changed file matches " + e.Paths.String(), nil
	case len(fails) > 0:
		return fmt.Sprintf("%d of %d changed file(s) in %s fail the schema (first %s)", len(fails), len(files), e.Paths.String(), fails[0].file), fails
	}
	return fmt.Sprintf("%d changed file(s) in %s satisfy the schema", len(files), e.Paths.String()), nil
}
