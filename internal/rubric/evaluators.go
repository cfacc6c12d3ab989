package rubric

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// The evaluator kinds a rubric may declare (spec §2.11). None runs a
// program, so a repository rubric may use every one of them.
const (
	KindRegex      = "regex"
	KindJSONSchema = "json_schema"
	KindFileEquals = "file_equals"
)

// EvaluatorKinds lists the kinds, in the order messages name them.
var EvaluatorKinds = []string{KindRegex, KindJSONSchema, KindFileEquals}

// What a regex evaluator reads.
const (
	InAddedLines  = "added_lines"
	InActorOutput = "actor_output"
)

// DefaultEvaluatorSeverity is the severity of an evaluator that names none:
// a broken rule of the project's own is a major problem.
const DefaultEvaluatorSeverity = severity.Major

// evaluatorKeys are the keys every evaluator may have, and kindKeys those
// its kind adds.
var (
	evaluatorKeys = []string{"name", "kind", "severity", "required"}
	kindKeys      = map[string][]string{
		KindRegex:      {"must_match", "must_not_match", "in", "paths"},
		KindJSONSchema: {"paths", "schema", "schema_file"},
		KindFileEquals: {"file", "expected"},
	}
	// evaluatorName keeps names safe in file names, record keys and
	// SARIF rule ids.
	// It compiles on first use: its {0,63} makes a large program, work
	// no command should pay at start.
	evaluatorName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })
)

// Evaluator is one deterministic check a rubric declares: a cheap offline
// rule whose result sits beside the judges' and folds into the gate like
// a command judge's (spec §2.11).
type Evaluator struct {
	Name string
	Kind string
	// Severity is the rung of the finding a failure reports.
	Severity severity.Level
	// Required makes a failure block the gate (the command check, §6.5);
	// otherwise only its finding counts, through the severity check.
	Required bool

	// Regex: Pattern must match (MustMatch) or must not match the added
	// lines of the files Paths selects, or the actor's output (In).
	Pattern   *regexp.Regexp
	MustMatch bool
	In        string
	// Paths selects changed files (regex over added lines, json_schema);
	// the zero Glob selects every file.
	Paths Glob

	// JSON Schema: Schema is the inline schema, SchemaFile the path of a
	// schema file (relative to the worktree root); exactly one is set.
	Schema     json.RawMessage
	SchemaFile string

	// File equals: the file's content (relative to the worktree root)
	// must be exactly Expected.
	File     string
	Expected string
}

// Evaluators decodes and checks the rubric's "evaluators" array; the
// error says which evaluator is wrong and why. A rubric without the key
// has none.
func (r *Rubric) Evaluators() ([]Evaluator, error) {
	if r == nil || len(r.rawEvaluators) == 0 {
		return nil, nil
	}
	var items []json.RawMessage
	if !isKind(r.rawEvaluators, '[') || json.Unmarshal(r.rawEvaluators, &items) != nil {
		return nil, fmt.Errorf("evaluators must be an array of objects, got %s", compact(r.rawEvaluators))
	}
	out := make([]Evaluator, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		e, err := parseEvaluator(item)
		if err != nil {
			return nil, fmt.Errorf("evaluators[%d]%s: %w", i, nameSuffix(item), err)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("evaluators[%d] (%s): the name is used twice", i, e.Name)
		}
		seen[e.Name] = true
		out = append(out, e)
	}
	return out, nil
}

// nameSuffix is " (<name>)" when the item has a string name, for messages.
func nameSuffix(item json.RawMessage) string {
	var f struct {
		Name any `json:"name"`
	}
	if json.Unmarshal(item, &f) == nil {
		if s, ok := f.Name.(string); ok && s != "" {
			return " (" + s + ")"
		}
	}
	return ""
}

// parseEvaluator reads one evaluator object.
func parseEvaluator(item json.RawMessage) (Evaluator, error) {
	var f map[string]json.RawMessage
	if !isKind(item, '{') || json.Unmarshal(item, &f) != nil {
		return Evaluator{}, fmt.Errorf("must be an object")
	}
	e := Evaluator{Name: stringValue(f["name"]), Kind: stringValue(f["kind"]), Severity: DefaultEvaluatorSeverity, Required: true}
	if !evaluatorName().MatchString(e.Name) {
		return e, fmt.Errorf("name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, got %s", compact(orNull(f["name"])))
	}
	extra, ok := kindKeys[e.Kind]
	if !ok {
		return e, fmt.Errorf("unknown kind %s (must be one of %s)", compact(orNull(f["kind"])), strings.Join(EvaluatorKinds, ", "))
	}
	if bad := unknownKeys(item, append(slices.Clone(evaluatorKeys), extra...), ""); len(bad) > 0 {
		return e, fmt.Errorf("%s (a %s evaluator has %s)", strings.Join(bad, ", "), e.Kind, strings.Join(append(slices.Clone(evaluatorKeys), extra...), ", "))
	}
	if raw := present(f["severity"]); raw != nil {
		l, ok := severity.Parse(stringValue(raw))
		if !isKind(raw, '"') || !ok {
			return e, fmt.Errorf("severity must be one of %s, got %s", strings.Join(severity.Names(), ", "), compact(raw))
		}
		e.Severity = l
	}
	if raw := present(f["required"]); raw != nil {
		if err := json.Unmarshal(raw, &e.Required); err != nil {
			return e, fmt.Errorf("required must be true or false, got %s", compact(raw))
		}
	}
	var err error
	switch e.Kind {
	case KindRegex:
		err = e.parseRegex(f)
	case KindJSONSchema:
		err = e.parseSchema(f)
	case KindFileEquals:
		err = e.parseFileEquals(f)
	}
	return e, err
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// parseRegex reads a regex evaluator: exactly one of must_match and
// must_not_match, an RE2 pattern (Go's regexp syntax).
func (e *Evaluator) parseRegex(f map[string]json.RawMessage) error {
	must, mustNot := present(f["must_match"]), present(f["must_not_match"])
	if (must == nil) == (mustNot == nil) {
		return fmt.Errorf("a regex evaluator needs exactly one of must_match and must_not_match")
	}
	key, raw := "must_not_match", mustNot
	if must != nil {
		key, raw, e.MustMatch = "must_match", must, true
	}
	src := stringValue(raw)
	if !isKind(raw, '"') || src == "" {
		return fmt.Errorf("%s must be a non-empty string, got %s", key, compact(raw))
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return fmt.Errorf("%s: invalid regular expression: %w", key, err)
	}
	e.Pattern = re
	e.In = InAddedLines
	if raw := present(f["in"]); raw != nil {
		e.In = stringValue(raw)
		if e.In != InAddedLines && e.In != InActorOutput {
			return fmt.Errorf("in must be %q or %q, got %s", InAddedLines, InActorOutput, compact(raw))
		}
	}
	if raw := present(f["paths"]); raw != nil {
		if e.In == InActorOutput {
			return fmt.Errorf("paths selects changed files; it has no meaning with in = %q", InActorOutput)
		}
		return e.parsePaths(raw)
	}
	return nil
}

// parseSchema reads a json_schema evaluator: paths and exactly one of
// schema (an object) and schema_file (a path). The schema itself is
// compiled where the worktree is known (internal/judging/evaluator).
func (e *Evaluator) parseSchema(f map[string]json.RawMessage) error {
	raw := present(f["paths"])
	if raw == nil {
		return fmt.Errorf("a json_schema evaluator needs paths (a glob of the changed files to check)")
	}
	if err := e.parsePaths(raw); err != nil {
		return err
	}
	schema, file := present(f["schema"]), present(f["schema_file"])
	if (schema == nil) == (file == nil) {
		return fmt.Errorf("a json_schema evaluator needs exactly one of schema and schema_file")
	}
	if schema != nil {
		if !isKind(schema, '{') {
			return fmt.Errorf("schema must be an object, got %s", compact(schema))
		}
		e.Schema = schema
		return nil
	}
	e.SchemaFile = stringValue(file)
	if !isKind(file, '"') || e.SchemaFile == "" {
		return fmt.Errorf("schema_file must be a non-empty string, got %s", compact(file))
	}
	if err := relativePath(e.SchemaFile); err != nil {
		return fmt.Errorf("schema_file %q: %w", e.SchemaFile, err)
	}
	return nil
}

// parseFileEquals reads a file_equals evaluator: a relative path and the
// content it must have.
func (e *Evaluator) parseFileEquals(f map[string]json.RawMessage) error {
	file, expected := present(f["file"]), f["expected"]
	e.File = stringValue(file)
	if !isKind(file, '"') || e.File == "" {
		return fmt.Errorf("file must be a non-empty string, got %s", compact(orNull(file)))
	}
	if err := relativePath(e.File); err != nil {
		return fmt.Errorf("file %q: %w", e.File, err)
	}
	if !isKind(expected, '"') {
		return fmt.Errorf("expected must be a string, got %s", compact(orNull(expected)))
	}
	e.Expected = stringValue(expected)
	return nil
}

// parsePaths reads a paths glob.
func (e *Evaluator) parsePaths(raw json.RawMessage) error {
	s := stringValue(raw)
	if !isKind(raw, '"') || s == "" {
		return fmt.Errorf("paths must be a non-empty string, got %s", compact(raw))
	}
	g, err := ParseGlob(s)
	if err != nil {
		return fmt.Errorf("paths: %w", err)
	}
	e.Paths = g
	return nil
}

// relativePath refuses a path that leaves the worktree: the evaluators
// of a repository rubric read only the repository.
func relativePath(p string) error {
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return fmt.Errorf("must be a relative path with '/' separators")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return fmt.Errorf("must stay inside the worktree (no '..')")
		}
	}
	return nil
}
