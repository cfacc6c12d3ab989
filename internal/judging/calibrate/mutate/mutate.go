// Package mutate makes deterministic, named breakages of a unified diff
// (drop a hunk, invert a condition, delete the tests, shift a bound by one)
// for `calibrate --mutate`'s label-free sensitivity check (spec §14.4).
package mutate

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// Kind names one breakage; its exact rule is in docs/spec.md §14.5.
type Kind string

// The mutation kinds, in the order a report lists them.
const (
	DropHunk        Kind = "drop-hunk"
	InvertCondition Kind = "invert-condition"
	DeleteTest      Kind = "delete-test"
	OffByOne        Kind = "off-by-one"
)

// Kinds are every mutation kind, in report order.
var Kinds = []Kind{DropHunk, InvertCondition, DeleteTest, OffByOne}

// Mutant is a broken copy of a diff.
type Mutant struct {
	Kind Kind
	// Diff is the whole mutated diff, in git's format.
	Diff string
	// Change says what was broken, e.g. `sum.go:12: "if n < 0 {" → "if !(n < 0) {"`.
	Change string
}

// NotApplicable says why a kind has nothing to break in a diff: the
// mutant is skipped and counted with this reason, never an error of the run.
type NotApplicable struct {
	Kind   Kind
	Reason string
}

func (e *NotApplicable) Error() string { return fmt.Sprintf("%s does not apply: %s", e.Kind, e.Reason) }

// Apply makes the kind's mutant of the diff whose files are files (as
// unidiff.Parse splits it). A *NotApplicable error says why there is none.
func Apply(k Kind, files []unidiff.File) (Mutant, error) {
	if len(files) == 0 {
		return Mutant{}, &NotApplicable{k, "the diff changes no file"}
	}
	for _, f := range files {
		if f.Binary {
			return Mutant{}, &NotApplicable{k, fmt.Sprintf("%s is a binary change, which a rewritten diff would lose", f.Path())}
		}
	}
	p := split(files)
	var change string
	var err error
	switch k {
	case DropHunk:
		change, err = p.dropHunk()
	case InvertCondition:
		change, err = p.editLine(invertCondition, "no added line of code opens with a condition (if, else if, elif, while) in a form the rule reads")
	case DeleteTest:
		change, err = p.deleteTests()
	case OffByOne:
		change, err = p.editLine(shiftBound, "no added line of code compares with a spaced <, <=, > or >=")
	default:
		return Mutant{}, fmt.Errorf("unknown mutation kind %q", k)
	}
	var na *NotApplicable
	if errors.As(err, &na) {
		na.Kind = k
	}
	if err != nil {
		return Mutant{}, err
	}
	return Mutant{Kind: k, Diff: p.text(), Change: change}, nil
}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// patch is a diff as editable files.
type patch []file

type file struct {
	path   string
	test   bool
	header []string
	hunks  []unidiff.Hunk
	gone   bool
}

func split(files []unidiff.File) patch {
	p := make(patch, len(files))
	for i, f := range files {
		p[i] = file{path: f.Path(), test: IsTest(f.Path()), header: f.Header(), hunks: f.Hunks()}
	}
	return p
}

func (p patch) text() string {
	var b strings.Builder
	for _, f := range p {
		if !f.gone {
			b.WriteString(unidiff.Format(f.header, f.hunks))
		}
	}
	return b.String()
}

// IsTest is the rule by which a path holds tests: a Go _test.go file;
// Python test_*.py or *_test.py; JavaScript/TypeScript *.test.* or
// *.spec.*; Java *Test.java or *Tests.java; Ruby *_spec.rb; or any path
// with a directory named test, tests, __tests__ or spec.
func IsTest(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		ext == ".py" && (strings.HasPrefix(base, "test_") || strings.HasSuffix(stem, "_test")),
		strings.Contains(stem, ".test") || strings.Contains(stem, ".spec"),
		ext == ".java" && (strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests")),
		strings.HasSuffix(base, "_spec.rb"):
		return true
	}
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		switch d {
		case "test", "tests", "__tests__", "spec":
			return true
		}
	}
	return false
}
