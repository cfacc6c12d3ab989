// Package docs holds no code: its test keeps the citations of docs/spec.md in the code and the
// other documents pointing at sections that exist.
package docs

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				if !have[m[1]] {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d cites spec §%s, which docs/spec.md does not have", rel, i+1, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
