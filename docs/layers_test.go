package docs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/tribunal-cc/tribunal/"

var layerRow = regexp.MustCompile(`^\s*([0-9]+)\s+[a-z]+\s+(.+)$`)

// layers reads the diagram of design.md's "Layers" section: the row of
// every package it draws, by internal/ name.
func layers(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Layers")
	if start < 0 {
		t.Fatal("design.md has no Layers section")
	}
	block := text[start:]
	block = block[strings.Index(block, "```text\n")+len("```text\n"):]
	block = block[:strings.Index(block, "```")]
	out := map[string]int{}
	for _, line := range strings.Split(block, "\n") {
		m := layerRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		row, _ := strconv.Atoi(m[1])
		for _, name := range strings.Fields(m[2]) {
			if strings.Trim(name, "│└┘─┬◄") == "" {
				continue
			}
			out["internal/"+name] = row
		}
	}
	return out
}

// testSupport are the packages only tests import; the diagram leaves them
// out.
func testSupport(pkg string) bool {
	return pkg == "internal/testkit" || strings.HasPrefix(pkg, "internal/testkit/")
}

// TestLayers: design.md's diagram draws every package, and every import of
// a package's non-test code goes to a lower row — the map says which
// package may import which, and the code keeps to it.
func TestLayers(t *testing.T) {
	rows := layers(t)
	if rows["internal/rules"] != 0 || rows["internal/session"] == 0 {
		t.Fatalf("the diagram did not parse: %v", rows)
	}
	for pkg := range goPackages(t) {
		if !strings.HasPrefix(pkg, "internal/") || testSupport(pkg) {
			continue
		}
		row, ok := rows[pkg]
		if !ok {
			t.Errorf("design.md's layer diagram does not draw %s", pkg)
			continue
		}
		for _, imp := range imports(t, filepath.Join("..", pkg)) {
			if !strings.HasPrefix(imp, module+"internal/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if r, ok := rows[dep]; ok && r >= row {
				t.Errorf("%s (row %d) imports %s (row %d): a package imports only rows below its own", pkg, row, dep, r)
			}
		}
	}
}

// imports lists what the non-test Go files of dir import.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range file.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			out = append(out, p)
		}
	}
	return out
}
