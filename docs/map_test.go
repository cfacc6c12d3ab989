package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	adrFile  = regexp.MustCompile(`^([0-9]{3})-[a-z0-9-]+\.md$`)
	adrTitle = regexp.MustCompile(`^# ADR-([0-9]{3}): `)
	adrCite  = regexp.MustCompile(`ADR-([0-9]{3})`)
)

// adrs returns the file name of every decision record by its number, and
// fails the test when two records share a number or a record's title
// carries another number than its file name.
func adrs(t *testing.T) map[string]string {
	t.Helper()
	entries, err := os.ReadDir("adr")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		m := adrFile.FindStringSubmatch(e.Name())
		if m == nil {
			if e.Name() != "README.md" {
				t.Errorf("docs/adr/%s is not named NNN-title.md", e.Name())
			}
			continue
		}
		if prev, dup := out[m[1]]; dup {
			t.Errorf("ADR-%s names two records: %s and %s", m[1], prev, e.Name())
		}
		out[m[1]] = e.Name()
		data, err := os.ReadFile(filepath.Join("adr", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		if tm := adrTitle.FindStringSubmatch(first); tm == nil || tm[1] != m[1] {
			t.Errorf("docs/adr/%s: its title %q does not start with \"# ADR-%s: \"", e.Name(), first, m[1])
		}
	}
	return out
}

// TestADRNumbersUnique: one number, one decision — and the index lists
// every record by its number and file.
func TestADRNumbersUnique(t *testing.T) {
	records := adrs(t)
	if len(records) < 12 {
		t.Fatalf("found %d decision records in docs/adr, want at least 12: %v", len(records), records)
	}
	index, err := os.ReadFile("adr/README.md")
	if err != nil {
		t.Fatalf("docs/adr has no index: %v", err)
	}
	for num, name := range records {
		if row := "[ADR-" + num + "](" + name + ")"; !strings.Contains(string(index), row) {
			t.Errorf("docs/adr/README.md does not list %s as %s", name, row)
		}
	}
}

// TestADRCitationsResolve: every "ADR-NNN" in the repository names a record
// that exists.
func TestADRCitationsResolve(t *testing.T) {
	records := adrs(t)
	walkText(t, func(rel string, line int, text string) {
		for _, m := range adrCite.FindAllStringSubmatch(text, -1) {
			if _, ok := records[m[1]]; !ok {
				t.Errorf("%s:%d cites ADR-%s, which docs/adr does not have", rel, line, m[1])
			}
		}
	})
}

// TestDesignMapNamesEveryPackage: every directory of Go code in the module
// appears in docs/design.md, so the map a newcomer reads has no blank
// spots.
func TestDesignMapNamesEveryPackage(t *testing.T) {
	design, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := goPackages(t)
	for _, want := range []string{"cmd/stop-gate", "internal/judging/gate", "internal/testkit/schemacheck", "e2e"} {
		if !pkgs[want] {
			t.Fatalf("the package walk missed %s: %v", want, pkgs)
		}
	}
	var missing []string
	for p := range pkgs {
		if !strings.Contains(string(design), "`"+p+"`") {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	for _, p := range missing {
		t.Errorf("docs/design.md does not name the package `%s`", p)
	}
}

// goPackages returns the module-relative directory of every package: each
// directory holding a .go file, outside testdata and the npm tree.
func goPackages(t *testing.T) map[string]bool {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "dist", "build", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) == ".go" {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// adrRow is one row of docs/adr/README.md's table: number, then the first
// word of its status; adrStatus is the first word of a record's own.
var (
	adrRow    = regexp.MustCompile(`(?m)^\| \[ADR-([0-9]{3})\]\([^)]*\) \|.*\| ([a-z]+)[^|]*\|$`)
	adrStatus = regexp.MustCompile(`(?m)^Status: ([A-Za-z]+)`)
)

// TestADRIndexOrderAndStatus: the index reads in number order, and each
// row's status opens with the word its record's Status line opens with,
// so a record that is accepted is not indexed as proposed.
func TestADRIndexOrderAndStatus(t *testing.T) {
	records := adrs(t)
	index, err := os.ReadFile("adr/README.md")
	if err != nil {
		t.Fatalf("docs/adr has no index: %v", err)
	}
	prev := ""
	for _, m := range adrRow.FindAllStringSubmatch(string(index), -1) {
		num, status := m[1], m[2]
		if num <= prev {
			t.Errorf("docs/adr/README.md lists ADR-%s after ADR-%s; keep the rows in number order", num, prev)
		}
		prev = num
		name, ok := records[num]
		if !ok {
			continue // TestADRNumbersUnique and the citation test report it
		}
		data, err := os.ReadFile(filepath.Join("adr", name))
		if err != nil {
			t.Fatal(err)
		}
		sm := adrStatus.FindSubmatch(data)
		if sm == nil {
			t.Errorf("docs/adr/%s has no \"Status: \" line", name)
		} else if !strings.EqualFold(string(sm[1]), status) {
			t.Errorf("docs/adr/README.md gives ADR-%s the status %q; docs/adr/%s says %q", num, status, name, sm[1])
		}
	}
	if prev == "" {
		t.Error("docs/adr/README.md has no rows the test can read")
	}
}
