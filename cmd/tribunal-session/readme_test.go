package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// readmeMarker precedes every block of a user page this test runs.
const readmeMarker = "<!-- readme-test:"

// readmeBlocks returns the ```sh blocks of a user page that follow a
// readme-test marker line.
func readmeBlocks(t *testing.T, page testkit.Page) []string {
	t.Helper()
	var blocks []string
	var cur *strings.Builder
	armed := false
	sc := bufio.NewScanner(strings.NewReader(page.Text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur != nil && line == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		case strings.HasPrefix(line, readmeMarker):
			armed = true
		case armed && line == "```sh":
			cur, armed = &strings.Builder{}, false
		case armed:
			t.Fatalf("%s: %q must be followed directly by a ```sh block", page.Path, readmeMarker)
		}
	}
	if cur != nil {
		t.Fatalf("%s: an unterminated ```sh block", page.Path)
	}
	return blocks
}

// userPages are the README and the docs pages it links (testkit.UserPages).
func userPages(t *testing.T) []testkit.Page {
	t.Helper()
	return testkit.ReadUserPages(t, filepath.Join("..", ".."))
}

// fencedBlocks returns the body of every ```lang block of the user pages,
// each with the page it is on.
func fencedBlocks(t *testing.T, lang string) (blocks []testkit.Page) {
	t.Helper()
	re := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```")
	for _, p := range userPages(t) {
		for _, m := range re.FindAllStringSubmatch(p.Text, -1) {
			blocks = append(blocks, testkit.Page{Path: p.Path, Text: m[1]})
		}
	}
	return blocks
}

// TestREADMEExamples runs every marked block of the user pages (the README
// and the docs pages its examples moved to) as written, as one sh -e
// script in a fresh git repository with tribunal-session and a fake
// claude that accepts every task on PATH: each line must exit 0. It also
// checks that every rubric the pages name exists as a built-in.
func TestREADMEExamples(t *testing.T) {
	builtins := rubric.LoadSet(rubric.LoadOptions{Builtins: config.Load(config.Sources{}).BuiltinRubrics()})
	dir := t.TempDir()
	n := 0
	for _, page := range userPages(t) {
		for _, m := range regexp.MustCompile(`--rubric[= ]([a-z][a-z0-9_-]*)`).FindAllStringSubmatch(page.Text, -1) {
			if !builtins.Has(m[1]) {
				t.Errorf("%s names rubric %q, which is not built in (built-ins: %v)", page.Path, m[1], builtins.IDs())
			}
		}
		for _, block := range readmeBlocks(t, page) {
			n++
			script := fmt.Sprintf(`# %s, block %d, run as written.
mkrepo repo
cd repo
env FAKE_CLAUDE_SCRIPT=$WORK/accept.json
exec sh -e $WORK/block.sh
-- block.sh --
%s-- accept.json --
{"rules":[
 {"role":"actor","reply":{"text":"Done.","cost":0.01}},
 {"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false},"cost":0.01}},
 {"reply":{"structured":{"score":0.9,"passed":true},"cost":0.01}}
]}
`, page.Path, n, block)
			name := fmt.Sprintf("%s-%d.txtar", strings.TrimSuffix(filepath.Base(page.Path), ".md"), n)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no user page has a block marked for this test")
	}
	testscript.Run(t, testcmds.Params(dir, false))
}

// TestREADMESettingsExamples: every ```json block of the user pages holds
// settings that are accepted as a user settings file without a single
// warning (an unknown or mistyped key warns) and change at least one
// setting.
func TestREADMESettingsExamples(t *testing.T) {
	blocks := fencedBlocks(t, "json")
	if len(blocks) == 0 {
		t.Fatal("no user page has a settings example")
	}
	for _, b := range blocks {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(b.Text), 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		cfg := config.Load(config.Sources{Home: home, Warn: func(s string) { warnings = append(warnings, s) }})
		if len(warnings) > 0 {
			t.Errorf("%s settings example\n%s\nwarns: %q", b.Path, b.Text, warnings)
		}
		took := 0
		for _, s := range cfg.Settings() {
			if s.Source == filepath.Join(home, ".claude", "settings.json") {
				took++
			}
		}
		if took == 0 {
			t.Errorf("%s settings example\n%s\nchanges no setting", b.Path, b.Text)
		}
	}
}

// TestREADMERubricExamples: every ```toml block of the user pages is a
// rubric overlay that loads without a warning and whose every rubric
// validates, evaluators included.
func TestREADMERubricExamples(t *testing.T) {
	blocks := fencedBlocks(t, "toml")
	if len(blocks) == 0 {
		t.Fatal("no user page has a rubric example")
	}
	for _, b := range blocks {
		path := filepath.Join(t.TempDir(), "tribunal.toml")
		if err := os.WriteFile(path, []byte(b.Text), 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		set := rubric.LoadSet(rubric.LoadOptions{RepoTOML: path, Warn: func(s string) { warnings = append(warnings, s) }})
		if len(warnings) > 0 || len(set.IDs()) == 0 {
			t.Errorf("%s rubric example\n%s\nwarns %q, loads %v", b.Path, b.Text, warnings, set.IDs())
		}
		for _, r := range set.All() {
			if err := rubric.Validate(&r); err != nil {
				t.Errorf("%s rubric example: %v", b.Path, err)
			}
		}
	}
}
