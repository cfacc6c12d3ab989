package docs

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/config"
)

var (
	dottedKey = regexp.MustCompile(`\btribunal(?:\.[a-z_]+)+`)
	tableCell = regexp.MustCompile("`([a-z_.<>]+)`")
)

// codeKeys returns every settings key (by its schema pattern) that a
// string literal of the shipped Go code names — the keys a warning, an
// error or a hint tells the user to set — with one file naming each.
func codeKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for _, root := range []string{"../cmd", "../internal"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				strings.Contains(path, "/testkit/") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var s scanner.Scanner
			s.Init(token.NewFileSet().AddFile(path, -1, len(src)), src, nil, 0)
			for {
				_, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				if v, err := strconv.Unquote(lit); err == nil {
					lit = v
				}
				for _, k := range dottedKey.FindAllString(lit, -1) {
					if p, ok := config.KeyPattern(k); ok && keys[p] == "" {
						keys[p] = path
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// readmeTableKeys returns the keys the first column of the configuration
// table (docs/configuration.md, moved there from the README) names, as
// "tribunal.<key>" patterns; a cell's ".api_key_env" after
// "judges.<type>.base_url" is a sibling of it.
func readmeTableKeys(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 3 {
			continue
		}
		parent := ""
		for _, m := range tableCell.FindAllStringSubmatch(cells[1], -1) {
			k := m[1]
			if strings.HasPrefix(k, ".") {
				k = parent + k
			}
			if i := strings.LastIndex(k, "."); i > 0 {
				parent = k[:i]
			}
			keys["tribunal."+k] = true
		}
	}
	return keys
}

// TestMessageKeysAreDocumented: every settings key the code tells a user
// about is a row of the configuration table (docs/configuration.md), and `config` (every
// effective setting, config.Settings) lists each one whose name is fixed
// even when nothing sets it — issue 34's tribunal.trust.ledger_key, named
// by the ledger's errors, was in neither.
func TestMessageKeysAreDocumented(t *testing.T) {
	code := codeKeys(t)
	if code["tribunal.trust.ledger_key"] == "" {
		t.Fatalf("found no message naming tribunal.trust.ledger_key: the scan is broken (found %v)", code)
	}
	table := readmeTableKeys(t)
	listed := map[string]bool{}
	for _, s := range config.Load(config.Sources{}).Settings() {
		listed[s.Key] = true
	}
	var keys []string
	for k := range code {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !table[k] {
			t.Errorf("%s names %s, which docs/configuration.md's table does not list", code[k], strings.TrimPrefix(k, "tribunal."))
		}
		if !strings.Contains(k, "<") && !listed[k] {
			t.Errorf("%s names %s, which 'tribunal-session config' does not print", code[k], k)
		}
	}
}
