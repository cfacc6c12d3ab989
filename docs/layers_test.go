package docs

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tribunal-cc/tribunal/"

// parts reads design.md's "Parts" section: the part of every pattern it
// lists (an internal/ package path, or a path ending in /... for every
// package under it), and its "never" rules as written.
func parts(t *testing.T) (map[string]string, []never) {
	t.Helper()
	data, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Parts")
	if start < 0 {
		t.Fatal("design.md has no Parts section")
	}
	text = text[start:]
	if end := strings.Index(text[1:], "\n## "); end >= 0 {
		text = text[:end+1]
	}
	blocks := strings.Split(text, "```text\n")
	if len(blocks) < 3 {
		t.Fatal("design.md's Parts section lacks its two text blocks (parts, never rules)")
	}
	patterns := map[string]string{}
	for _, line := range strings.Split(blocks[1][:strings.Index(blocks[1], "```")], "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] == "part" {
			continue
		}
		for _, p := range f[1:] {
			patterns[p] = f[0]
		}
	}
	var rules []never
	for _, line := range strings.Split(blocks[2][:strings.Index(blocks[2], "```")], "\n") {
		from, to, ok := strings.Cut(strings.TrimSpace(line), "→")
		if !ok || !strings.HasPrefix(from, "never ") {
			continue
		}
		rules = append(rules, never{line: strings.TrimSpace(line), from: strings.Fields(from)[1:], to: strings.Fields(to)})
	}
	return patterns, rules
}

// never is one rule: no package matched by from links one matched by to.
type never struct {
	line     string
	from, to []string
}

// partOf is the part whose pattern names pkg (an internal/ name without
// the prefix), the longest pattern winning.
func partOf(patterns map[string]string, pkg string) string {
	best, part := "", ""
	for p, pt := range patterns {
		base, tree := strings.CutSuffix(p, "/...")
		if (pkg == p || tree && strings.HasPrefix(pkg, base+"/")) && len(p) > len(best) {
			best, part = p, pt
		}
	}
	return part
}

// matches says whether term (a part's name, an internal/ package, a
// package tree ending /..., a cmd/ package, or another module's package
// or package tree) names pkg, a full import path.
func matches(patterns map[string]string, term, pkg string) bool {
	name, internal := strings.CutPrefix(pkg, module+"internal/")
	if internal {
		if slices.Contains(partNames(patterns), term) {
			return partOf(patterns, name) == term
		}
		base, tree := strings.CutSuffix(term, "/...")
		return name == term || tree && (name == base || strings.HasPrefix(name, base+"/"))
	}
	if rest, ok := strings.CutPrefix(pkg, module); ok {
		return rest == term
	}
	base, tree := strings.CutSuffix(term, "/...")
	return pkg == term || tree && (pkg == base || strings.HasPrefix(pkg, base+"/"))
}

func partNames(patterns map[string]string) []string {
	var out []string
	for _, p := range patterns {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// deps is every package of the module with its transitive imports (non-test).
func deps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./cmd/...", "./internal/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

// TestPartsNameEveryPackage: design.md's parts list places every package
// of internal/ in exactly one part.
func TestPartsNameEveryPackage(t *testing.T) {
	patterns, _ := parts(t)
	if partOf(patterns, "session") != "cli" || partOf(patterns, "store/records") != "store" {
		t.Fatalf("the parts list did not parse: %v", patterns)
	}
	for pkg := range goPackages(t) {
		if name, ok := strings.CutPrefix(pkg, "internal/"); ok && partOf(patterns, name) == "" {
			t.Errorf("design.md's parts list does not place %s", pkg)
		}
	}
}

// TestNeverRules holds the code to design.md's "never" rules between
// parts: no package a rule's left side names links, directly or through
// another package, a package its right side names.
func TestNeverRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	patterns, rules := parts(t)
	if len(rules) < 5 {
		t.Fatalf("design.md states %d never rules; the block did not parse", len(rules))
	}
	all := deps(t)
	for _, r := range rules {
		checked := 0
		for pkg, ds := range all {
			if !slices.ContainsFunc(r.from, func(term string) bool { return matches(patterns, term, pkg) }) {
				continue
			}
			checked++
			for _, d := range ds {
				if slices.ContainsFunc(r.to, func(term string) bool { return matches(patterns, term, d) }) {
					t.Errorf("%s links %s, against %q", strings.TrimPrefix(pkg, module), strings.TrimPrefix(d, module), r.line)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%q names no package", r.line)
		}
	}
}

// TestMatchesTermsOutsideTheModule: a rule may name another module's
// package tree, as the one keeping the SDKs out of tribunal-session does.
func TestMatchesTermsOutsideTheModule(t *testing.T) {
	for _, tc := range []struct {
		term, pkg string
		want      bool
	}{
		{"net/http", "net/http", true},
		{"net/http", "net/http/httptrace", false},
		{"go.opentelemetry.io/...", "go.opentelemetry.io/otel/sdk/trace", true},
		{"go.opentelemetry.io/...", "go.opentelemetry.io", true},
		{"go.opentelemetry.io/...", "go.opentelemetry.iox/otel", false},
		{"google.golang.org/grpc/...", "google.golang.org/protobuf/proto", false},
		{"cmd/tribunal-session", module + "cmd/tribunal-session", true},
	} {
		if got := matches(nil, tc.term, tc.pkg); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.term, tc.pkg, got, tc.want)
		}
	}
}
