// Package docs holds no code: its tests keep docs/spec.md and the code in
// step — every citation names a section that exists, and the spec names the
// gate's words and defaults as the code defines them — and keep
// docs/design.md and docs/adr true: ADR numbers are unique and indexed, the
// map names every package, and the code imports only down the map's layers.
package docs

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

var (
	heading      = regexp.MustCompile(`^#{2,3} ([0-9]+(?:\.[0-9]+)?)[. ]`)
	appendix     = regexp.MustCompile(`^## Appendix ([A-Z])\.`)
	appendixItem = regexp.MustCompile(`^([0-9]+)\. `)
	cite         = regexp.MustCompile(`spec §([0-9A-Z]+(?:\.[0-9]+)*)`)
)

// sections returns every citable number of spec.md: "6", "6.3", "A.22".
func sections(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	letter := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := appendix.FindStringSubmatch(line); m != nil {
			letter = m[1]
			out[letter] = true
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			out[m[1]] = true
			continue
		}
		if m := appendixItem.FindStringSubmatch(line); m != nil && letter != "" {
			out[letter+"."+m[1]] = true
		}
	}
	return out
}

// TestSpecCitationsResolve: every "spec §<number>" in the repository names a
// section (or appendix item) of docs/spec.md.
func TestSpecCitationsResolve(t *testing.T) {
	have := sections(t)
	for _, want := range []string{"2.7", "6.4", "A.23", "B.25"} {
		if !have[want] {
			t.Fatalf("the section index of spec.md lacks %s: %v", want, have)
		}
	}
	walkText(t, func(rel string, line int, text string) {
		for _, m := range cite.FindAllStringSubmatch(text, -1) {
			if !have[m[1]] {
				t.Errorf("%s:%d cites spec §%s, which docs/spec.md does not have", rel, line, m[1])
			}
		}
	})
}

// walkText calls visit with every line of the repository's Go, Markdown,
// testscript and shell files (outside .git, node_modules and build output),
// numbered from 1.
func walkText(t *testing.T, visit func(rel string, line int, text string)) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "dist", "build":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".txtar", ".sh":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(data), "\n") {
			visit(rel, i+1, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// section returns the text of spec.md's section "### <num> …" up to the
// next heading of the same or a higher level.
func section(t *testing.T, num string) string {
	t.Helper()
	data, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n### "+num+" ")
	if start < 0 {
		t.Fatalf("spec.md has no section %s", num)
	}
	rest := text[start+1:]
	if end := strings.Index(rest[4:], "\n##"); end >= 0 {
		rest = rest[:end+4]
	}
	return rest
}

// TestSpecVocabulary: spec §6.1 names every word of the gate's vocabulary and
// spec §2.4 every built-in default, as internal/rules defines them.
func TestSpecVocabulary(t *testing.T) {
	vocabulary := section(t, "6.1")
	var words []string
	for _, p := range rules.Policies {
		words = append(words, string(p))
	}
	for _, r := range rules.Reasons {
		words = append(words, string(r))
	}
	for _, m := range rules.Methods {
		words = append(words, string(m))
	}
	words = append(words, string(rules.ByCommand), string(rules.BySeverity), string(rules.ByTrust))
	for _, w := range words {
		if !strings.Contains(vocabulary, "`"+w+"`") {
			t.Errorf("spec §6.1 does not name %q", w)
		}
	}
	defaults := section(t, "2.4")
	for _, v := range []string{
		fmt.Sprint(rules.DefaultScoreThreshold), fmt.Sprint(rules.DefaultMaxIterations),
		"`" + string(rules.DefaultPolicy) + "`", "`" + string(rules.DefaultMethod) + "`",
		fmt.Sprint(rules.DefaultDissentThreshold), fmt.Sprint(rules.DefaultMinCriterionCoverage),
	} {
		if !strings.Contains(defaults, "| "+v+" |") {
			t.Errorf("spec §2.4's table lacks the default %s", v)
		}
	}
}
