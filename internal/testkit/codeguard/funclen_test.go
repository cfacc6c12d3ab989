package codeguard

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the house limit on a function's length, counted from its
// func line to its closing brace.
const maxFuncLines = 80

// longFuncs lists non-test functions allowed over maxFuncLines while they
// wait to be split, with their length; each may only shrink. It is empty:
// the last of them dissolved when judging left internal/session. Keyed by
// file and function ("Recv.Name" for a method).
var longFuncs = map[string]int{}

// funcLengths returns the length of every non-test function declared in
// the module's .go files, keyed as longFuncs is.
func funcLengths(t *testing.T) map[string]int {
	t.Helper()
	root := filepath.Join("..", "..", "..")
	out := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			out[filepath.ToSlash(rel)+" "+funcName(fn)] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// funcName is a function's name, or Recv.Name for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// TestFunctionLength fails on a new function over maxFuncLines and on a
// listed one that grew; a listed one that shrank to the limit, or went
// away, must leave the list, so that it cannot grow back unnoticed.
func TestFunctionLength(t *testing.T) {
	lengths := funcLengths(t)
	var long []string
	for key, n := range lengths {
		if n <= maxFuncLines {
			continue
		}
		long = append(long, fmt.Sprintf("%s (%d lines)", key, n))
		allowed, listed := longFuncs[key]
		switch {
		case !listed:
			t.Errorf("%s is %d lines, over the limit of %d: split it", key, n, maxFuncLines)
		case n > allowed:
			t.Errorf("%s grew to %d lines (allowed %d while it waits to be split): split it", key, n, allowed)
		case n < allowed:
			t.Errorf("%s shrank to %d lines: lower its entry in longFuncs from %d", key, n, allowed)
		}
	}
	for key := range longFuncs {
		if n, ok := lengths[key]; !ok || n <= maxFuncLines {
			t.Errorf("longFuncs lists %s, now within the limit or gone: remove the entry", key)
		}
	}
	sort.Strings(long)
	t.Logf("%d functions over %d lines:\n%s", len(long), maxFuncLines, strings.Join(long, "\n"))
}
