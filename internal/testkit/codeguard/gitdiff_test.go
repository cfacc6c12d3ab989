package codeguard

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// contentCommands are the git commands that read a tree's or a file's
// content and so may run what the repository configures for it: a
// `diff.<driver>.textconv` or external diff named in .git/config and
// assigned by a .gitattributes of the change itself. Every call of one
// passes --no-textconv and --no-ext-diff (git grep has no external diff,
// and refuses the option): git runs nothing of the change (issue 30 §7).
var contentCommands = map[string]bool{
	"diff": true, "diff-index": true, "diff-tree": true, "diff-files": true, "log": true, "show": true,
	"whatchanged": true, "format-patch": true, "blame": true, "annotate": true, "grep": true, "range-diff": true,
}

// gitCallee matches a callee that runs git (git, m.git, r.Git, gitLine,
// c.git(env)) or builds its arguments (diffCmd).
var gitCallee = regexp.MustCompile(`(?i)git|diffCmd`)

// notGit are files whose argument lists name tribunal-session's own
// commands (its "log" and "show"), never git's.
var notGit = map[string]bool{"internal/mcpserver/tools.go": true}

// TestGitContentCallsRunNothing lists every git call of the module that
// reads content and fails for one without both options.
func TestGitContentCallsRunNothing(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	n := 0
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
		rel, _ := filepath.Rel(root, path)
		if notGit[filepath.ToSlash(rel)] {
			return nil
		}
		bad, found := gitContentCalls(t, path, pkgStringVars(t, filepath.Dir(path)))
		n += found
		for _, b := range bad {
			t.Errorf("%s: %s", filepath.ToSlash(rel), b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The walk must have found the calls it guards (review, gitstate,
	// worktree, receipt, calibrate…): a guard that sees none guards nothing.
	if n < 10 {
		t.Errorf("found %d git calls that read content; the guard is not seeing them", n)
	}
}

// TestGitContentGuardCatches proves the guard fails a call without the
// options, through a package-level argument list too.
func TestGitContentGuardCatches(t *testing.T) {
	src := `package p
var flags = []string{"-p", "--no-ext-diff"}
func f() {
	git(ctx, root, "diff", "--no-index", "--no-textconv", "--no-ext-diff", "a", "b")
	git(ctx, root, append([]string{"diff-tree"}, flags...)...)
	m.gitLine(ctx, dir, "show", "HEAD:x")
	fs.StringVar(&f.diff, "diff", "", "")
	c.git(env)(ctx, dir, "grep", "--no-textconv", "-e", "x")
	t.o.Run(ctx, []string{"log", "--json"}, "")
	args := append([]string{"log", "-p"}, flags...)
}
`
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	bad, found := gitContentCalls(t, file, pkgStringVars(t, dir))
	if found != 5 || len(bad) != 3 || !strings.Contains(bad[0], "diff-tree") || !strings.Contains(bad[1], "show") || !strings.Contains(bad[2], "log") {
		t.Errorf("found %d, flagged %q; want 5 found, the diff-tree, show and log -p lists flagged", found, bad)
	}
}

// pkgStringVars maps each package-level []string variable of the package
// in dir to its literal elements: argument lists calls append.
func pkgStringVars(t *testing.T, dir string) map[string][]string {
	t.Helper()
	vars := map[string][]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.CompositeLit); ok && isStringSlice(lit.Type) && i < len(vs.Names) {
						vars[vs.Names[i].Name] = literalStrings(lit)
					}
				}
			}
		}
	}
	return vars
}

// gitContentCalls returns the calls of file that run a content command
// without both options, and how many such calls it found.
func gitContentCalls(t *testing.T, file string, vars map[string][]string) (bad []string, found int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var top func(n ast.Node) bool
	check := func(expr ast.Expr) {
		var args []string
		gitish := false
		ast.Inspect(expr, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				ast.Inspect(x.Body, top)
				return false
			case *ast.BasicLit:
				if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING {
					args = append(args, s)
				}
			case *ast.Ident:
				args = append(args, vars[x.Name]...)
			case *ast.CallExpr:
				gitish = gitish || gitCallee.MatchString(types.ExprString(x.Fun))
			}
			return true
		})
		if !gitish && !argList(expr) {
			return
		}
		i := slices.IndexFunc(args, func(s string) bool { return contentCommands[s] })
		if i < 0 {
			return
		}
		found++
		cmd := args[i]
		missing := []string{}
		for _, opt := range []string{"--no-textconv", "--no-ext-diff"} {
			if !slices.Contains(args, opt) && !(cmd == "grep" && opt == "--no-ext-diff") {
				missing = append(missing, opt)
			}
		}
		if len(missing) > 0 {
			bad = append(bad, fmt.Sprintf("line %d: git %s without %s", fset.Position(expr.Pos()).Line, cmd, strings.Join(missing, " ")))
		}
	}
	top = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			check(x)
			return false
		case *ast.CompositeLit:
			check(x)
			return false
		}
		return true
	}
	ast.Inspect(f, top)
	return bad, found
}

// argList reports whether expr is a git argument list by its shape: a
// []string literal, or an append to one, that starts with a content
// command (a list a later call passes to git). A list passed straight to
// another runner (tribunal-session's own "log") is not one.
func argList(expr ast.Expr) bool {
	lit, _ := expr.(*ast.CompositeLit)
	if call, ok := expr.(*ast.CallExpr); ok && len(call.Args) > 0 {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "append" {
			lit, _ = call.Args[0].(*ast.CompositeLit)
		}
	}
	if lit == nil || !isStringSlice(lit.Type) {
		return false
	}
	els := literalStrings(lit)
	return len(els) > 0 && contentCommands[els[0]]
}

func isStringSlice(e ast.Expr) bool {
	a, ok := e.(*ast.ArrayType)
	if !ok || a.Len != nil {
		return false
	}
	id, ok := a.Elt.(*ast.Ident)
	return ok && id.Name == "string"
}

// literalStrings are a composite literal's string elements.
func literalStrings(lit *ast.CompositeLit) []string {
	var out []string
	for _, e := range lit.Elts {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				out = append(out, s)
			}
		}
	}
	return out
}
