package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// readmeMarker precedes every README block this test runs.
const readmeMarker = "<!-- readme-test:"

// readmeBlocks returns the ```sh blocks of README.md that follow a
// readme-test marker line.
func readmeBlocks(t *testing.T, readme []byte) []string {
	t.Helper()
	var blocks []string
	var cur *strings.Builder
	armed := false
	sc := bufio.NewScanner(bytes.NewReader(readme))
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
			t.Fatalf("README.md: %q must be followed directly by a ```sh block", readmeMarker)
		}
	}
	if cur != nil {
		t.Fatal("README.md: an unterminated ```sh block")
	}
	return blocks
}

// TestREADMEExamples runs every marked README block as written, as one sh
// -e script in a fresh git repository with tribunal-session and a fake
// claude that accepts every task on PATH: each line must exit 0. It also
// checks that every rubric the README names exists as a built-in.
func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	builtins := rubric.LoadSet(rubric.LoadOptions{Builtins: config.Load(config.Sources{}).BuiltinRubrics()})
	for _, m := range regexp.MustCompile(`--rubric[= ]([a-z][a-z0-9_-]*)`).FindAllSubmatch(readme, -1) {
		if !builtins.Has(string(m[1])) {
			t.Errorf("README.md names rubric %q, which is not built in (built-ins: %v)", m[1], builtins.IDs())
		}
	}
	blocks := readmeBlocks(t, readme)
	if len(blocks) == 0 {
		t.Fatal("README.md has no block marked for this test")
	}
	dir := t.TempDir()
	for i, block := range blocks {
		script := fmt.Sprintf(`# README.md block %d, run as written.
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
`, i+1, block)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("readme-%d.txtar", i+1)), []byte(script), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	testscript.Run(t, testcmds.Params(dir, false))
}

// TestREADMESettingsExamples: every ```json block of README.md that holds
// settings is accepted as a user settings file without a single warning
// (an unknown or mistyped key warns) and changes at least one setting.
func TestREADMESettingsExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no settings example")
	}
	for _, b := range blocks {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), b[1], 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		cfg := config.Load(config.Sources{Home: home, Warn: func(s string) { warnings = append(warnings, s) }})
		if len(warnings) > 0 {
			t.Errorf("README settings example\n%s\nwarns: %q", b[1], warnings)
		}
		took := 0
		for _, s := range cfg.Settings() {
			if s.Source == filepath.Join(home, ".claude", "settings.json") {
				took++
			}
		}
		if took == 0 {
			t.Errorf("README settings example\n%s\nchanges no setting", b[1])
		}
	}
}

// TestREADMERubricExamples: every ```toml block of README.md is a rubric
// overlay that loads without a warning and whose every rubric validates,
// evaluators included.
func TestREADMERubricExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no rubric example")
	}
	for _, b := range blocks {
		path := filepath.Join(t.TempDir(), "tribunal.toml")
		if err := os.WriteFile(path, b[1], 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		set := rubric.LoadSet(rubric.LoadOptions{RepoTOML: path, Warn: func(s string) { warnings = append(warnings, s) }})
		if len(warnings) > 0 || len(set.IDs()) == 0 {
			t.Errorf("README rubric example\n%s\nwarns %q, loads %v", b[1], warnings, set.IDs())
		}
		for _, r := range set.All() {
			if err := rubric.Validate(&r); err != nil {
				t.Errorf("README rubric example: %v", err)
			}
		}
	}
}
