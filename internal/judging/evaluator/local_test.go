package evaluator

import (
	"context"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaengine"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// compileLocal is Compile with the validator answering in this process,
// as the tribunal-schema program would.
func compileLocal(es []rubric.Evaluator, root string) (*Set, error) {
	return Compile(context.Background(), es, root, schemaengine.Local{})
}
