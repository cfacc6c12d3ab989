package docs

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// readmeMaxLines is "a README that fits on a few screens" (issue 34 item
// 9): what a user needs on day one, with the rest on the docs pages.
const readmeMaxLines = 250

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeFitsAFewScreens: the README stays short and links every docs
// page written for users, so nothing that moved out of it is lost.
func TestReadmeFitsAFewScreens(t *testing.T) {
	pages := testkit.ReadUserPages(t, "..")
	readme := pages[0]
	if n := strings.Count(readme.Text, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move what a user does not need on day one to a docs/ page", n, readmeMaxLines)
	}
	links := map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(readme.Text, -1) {
		file, _, _ := strings.Cut(m[1], "#")
		links[file] = true
	}
	for _, p := range append(pages[1:], testkit.Page{Path: "docs/security.md"}) {
		if !links[p.Path] {
			t.Errorf("README.md does not link %s", p.Path)
		}
	}
}

// TestUserDocLinksResolve: every relative link of the user pages names a
// file that exists and, with a #fragment, a heading of that page — the
// README's sections moved to docs/, and a link left pointing at the old
// place must fail here rather than 404 for a reader.
func TestUserDocLinksResolve(t *testing.T) {
	pages := testkit.ReadUserPages(t, "..")
	for _, p := range pages {
		for _, m := range mdLink.FindAllStringSubmatch(p.Text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			rel := p.Path
			if file != "" {
				rel = path.Clean(path.Join(path.Dir(p.Path), file))
			}
			data, err := os.ReadFile("../" + rel)
			if err != nil {
				t.Errorf("%s links %s: %v", p.Path, target, err)
				continue
			}
			if frag != "" && !anchors(string(data))[frag] {
				t.Errorf("%s links %s: %s has no heading with the anchor #%s", p.Path, target, rel, frag)
			}
		}
	}
}

// anchors returns the anchors GitHub gives the headings of a Markdown
// text (fenced code left out): lower case, spaces to hyphens, punctuation
// other than - and _ dropped.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}
