// Package evaluator runs a rubric's deterministic evaluators — regular
// expressions over a change's added lines or the actor's output, JSON
// Schemas over changed files, exact file contents — offline and in
// milliseconds, beside the jury.
package evaluator

import (
	"context"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// Bounds on what one run reads and reports.
const (
	// MaxFindings is the most findings one evaluator reports; the summary
	// still counts them all.
	MaxFindings = 20
	// maxFileBytes bounds a file read for a schema or an exact match, and
	// a schema file: larger ones fail rather than fill memory. It is the
	// helper's bound on an item, so nothing read is refused there.
	maxFileBytes = schemaproto.MaxItemBytes
)

// Set is a rubric's evaluators, compiled: patterns parsed, schemas loaded
// and checked. The zero Set (and nil) has none.
type Set struct {
	evals []compiled
	// v compiles and validates the JSON Schemas (the tribunal-schema
	// helper).
	v schemaproto.Validator
}

type compiled struct {
	rubric.Evaluator
	// source is the schema as read (a schema_file's content), for
	// Sources and for the helper, which compiles it again each round.
	source []byte
	// schema is its index among the Set's schemas (-1: none); where
	// says where it was read ("schema", "schema_file F").
	schema int
	where  string
}

// Compile prepares the evaluators of a rubric whose files live under
// root (the worktree root): it reads every schema_file there and has v
// compile every schema — all in one run of the helper, none without a
// json_schema evaluator — so a bad schema stops a run before any model
// call. The error names the evaluator, the first in the rubric's order.
func Compile(ctx context.Context, specs []rubric.Evaluator, root string, v schemaproto.Validator) (*Set, error) {
	s, readErr := Prepare(specs, root, v)
	// The schemas read before the first that could not be may not
	// compile: the first of them that does not is the error, as it
	// comes first.
	if err := s.Check(ctx); err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, readErr
	}
	return s, nil
}

// Prepare is Compile without the helper: the schemas are read and their
// keywords checked, not compiled. A caller that may never validate (a
// review whose verdict comes from the cache) Checks the Set before the
// first model call instead. When a schema cannot be read, the error
// comes with the Set of the evaluators before it, for Compile to check
// first.
func Prepare(specs []rubric.Evaluator, root string, v schemaproto.Validator) (*Set, error) {
	s := &Set{v: v}
	n := 0
	for _, e := range specs {
		c := compiled{Evaluator: e, schema: -1}
		if e.Kind == rubric.KindJSONSchema {
			raw, w, err := loadSchema(e, root)
			if err != nil {
				return s, fmt.Errorf("evaluator %s: %w", e.Name, err)
			}
			c.source, c.where, c.schema = raw, w, n
			n++
		}
		s.evals = append(s.evals, c)
	}
	return s, nil
}

// schemas are the Set's schemas in order, as the helper is sent them.
func (s *Set) schemas() []schemaproto.Schema {
	var out []schemaproto.Schema
	for _, e := range s.evals {
		if e.schema >= 0 {
			out = append(out, schemaproto.Schema{Name: e.Name, Source: e.source})
		}
	}
	return out
}

// Check has the helper compile every schema of the Set, in one run (none
// when it has no json_schema evaluator); the error names the first
// evaluator whose schema does not compile.
func (s *Set) Check(ctx context.Context) error {
	if s == nil {
		return nil
	}
	req := schemaproto.Request{Schemas: s.schemas()}
	if len(req.Schemas) == 0 {
		return nil
	}
	res, err := validate(ctx, s.v, &req)
	if err != nil {
		return fmt.Errorf("evaluator %s: %w", req.Schemas[0].Name, err)
	}
	for _, e := range s.evals {
		if e.schema >= 0 && e.schema < len(res.Schemas) && res.Schemas[e.schema].Error != "" {
			return fmt.Errorf("evaluator %s: %s: %s", e.Name, e.where, res.Schemas[e.schema].Error)
		}
	}
	return nil
}

// ForRubric compiles the evaluators of a validated rubric whose files
// live under root, with v (see Compile); the error starts as rubric
// validation's do, with the rubric's origin and id, so a missing schema
// file reads like any other rubric mistake.
func ForRubric(ctx context.Context, rub *rubric.Rubric, root string, v schemaproto.Validator) (*Set, error) {
	specs, err := rub.Evaluators()
	if err == nil {
		var set *Set
		if set, err = Compile(ctx, specs, root, v); err == nil {
			return set, nil
		}
	}
	return nil, RubricError(rub, err)
}

// PrepareRubric is ForRubric without the helper (see Prepare): the Set's
// Check, wrapped in RubricError, must pass before a model is called.
func PrepareRubric(rub *rubric.Rubric, root string, v schemaproto.Validator) (*Set, error) {
	specs, err := rub.Evaluators()
	if err == nil {
		var set *Set
		if set, err = Prepare(specs, root, v); err == nil {
			return set, nil
		}
	}
	return nil, RubricError(rub, err)
}

// RubricError words err as rubric validation's errors are: the rubric's
// origin and id first.
func RubricError(rub *rubric.Rubric, err error) error {
	err = fmt.Errorf("rubric %s: %w", rub.ID, err)
	if rub.Origin != "" {
		err = fmt.Errorf("%s: %w", rub.Origin, err)
	}
	return err
}

// Sources are the schemas as read, one per json_schema evaluator in
// order: with the rubric they decide what the evaluators check, so a
// fingerprint of a jury covers a schema_file's content too.
func (s *Set) Sources() [][]byte {
	if s == nil {
		return nil
	}
	var out [][]byte
	for _, e := range s.evals {
		if e.schema >= 0 {
			out = append(out, e.source)
		}
	}
	return out
}

// Len is the number of evaluators.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.evals)
}

// Change is what the evaluators look at.
type Change struct {
	// Files are the change, unbounded (internal/git/unidiff): their added
	// lines, and which files changed.
	Files []unidiff.File
	// Dir holds the changed files as they are now.
	Dir string
	// ActorOutput is the actor's final message (or a review's claim).
	ActorOutput string
}

// Result is one evaluator's outcome.
type Result struct {
	Name     string
	Kind     string
	Severity severity.Level
	Required bool
	Passed   bool
	// Summary is one line saying what was found.
	Summary string
	// Findings are the concrete failures, at most MaxFindings, each at
	// the evaluator's severity, with file and line where there is one.
	Findings []severity.Finding
}

// Run runs every evaluator over c, in the rubric's order: the JSON
// Schemas of all of them in one run of the helper, none when no changed
// file is selected.
func (s *Set) Run(ctx context.Context, c Change) []Result {
	if s.Len() == 0 {
		return nil
	}
	var root *os.Root
	if c.Dir != "" {
		if r, err := os.OpenRoot(c.Dir); err == nil {
			root = r
			defer r.Close()
		}
	}
	schemas := s.runSchemas(ctx, c.Files, root)
	out := make([]Result, 0, len(s.evals))
	for i, e := range s.evals {
		r := Result{Name: e.Name, Kind: e.Kind, Severity: e.Severity, Required: e.Required}
		var fails []failure
		switch e.Kind {
		case rubric.KindRegex:
			r.Summary, fails = e.runRegex(c)
		case rubric.KindJSONSchema:
			r.Summary, fails = e.schemaSummary(schemas[i])
		case rubric.KindFileEquals:
			r.Summary, fails = e.runFileEquals(root)
		}
		r.Passed = len(fails) == 0
		for i, f := range fails {
			if i == MaxFindings {
				break
			}
			r.Findings = append(r.Findings, severity.Finding{
				Severity: e.Severity.String(), Message: safetext.OneLine(f.message, severity.MaxMessageBytes),
				File: f.file, Line: f.line, Criterion: "evaluator:" + e.Name, Judge: "evaluator:" + e.Name,
			})
		}
		out = append(out, r)
	}
	return out
}

// failure is one thing an evaluator found wrong.
type failure struct {
	file    string
	line    int
	message string
}

// runRegex checks the added lines of the selected files, or the actor's
// output.
func (e compiled) runRegex(c Change) (string, []failure) {
	re := "/" + safetext.Clip(e.Pattern.String(), 80) + "/"
	if e.In == rubric.InActorOutput {
		loc := e.Pattern.FindStringIndex(c.ActorOutput)
		switch {
		case e.MustMatch && loc == nil:
			return "the actor's output does not match " + re, []failure{{message: "the actor's output does not match " + re}}
		case e.MustMatch:
			return "the actor's output matches " + re, nil
		case loc != nil:
			// The matched text is never quoted: a pattern that looks for
			// secrets must not copy one into the records and the ledger.
			line := strings.Count(c.ActorOutput[:loc[0]], "\n") + 1
			msg := fmt.Sprintf("line %d of the actor's output matches %s", line, re)
			return msg, []failure{{message: msg}}
		}
		return "the actor's output does not match " + re, nil
	}
	var hits []failure
	scanned := 0
	for _, f := range c.Files {
		if f.NewPath == "" || !e.Paths.Match(f.NewPath) {
			continue
		}
		for _, l := range f.AddedLines() {
			scanned++
			if loc := e.Pattern.FindStringIndex(l.Text); loc != nil {
				// Located by column, not quoted (see the actor's output).
				hits = append(hits, failure{file: f.NewPath, line: l.Line,
					message: fmt.Sprintf("added line matches %s at column %d", re, utf8.RuneCountInString(l.Text[:loc[0]])+1)})
				if e.MustMatch {
					break
				}
			}
		}
		if e.MustMatch && len(hits) > 0 {
			break
		}
	}
	scope := fmt.Sprintf("%d added line(s)", scanned)
	if e.Paths.String() != "" {
		scope += " in " + e.Paths.String()
	}
	switch {
	case e.MustMatch && len(hits) == 0:
		msg := "no added line matches " + re + " (" + scope + ")"
		return msg, []failure{{message: msg}}
	case e.MustMatch:
		return fmt.Sprintf("%s:%d matches %s", hits[0].file, hits[0].line, re), nil
	case len(hits) > 0:
		return fmt.Sprintf("%d of %s match %s (first %s:%d)", len(hits), scope, re, hits[0].file, hits[0].line), hits
	}
	return "none of " + scope + " matches " + re, nil
}
