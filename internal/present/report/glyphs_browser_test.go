package report

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
)

// everyOutcome is every outcome a page can show a glyph for.
var everyOutcome = []string{rules.OutcomeAccepted, rules.OutcomeExhausted, rules.OutcomeAborted,
	rules.OutcomeRejected, rules.OutcomeFailed, rules.OutcomeCancelled, rules.OutcomeIncomplete}

// pageSymbols is every character beyond ASCII in a rendered page, plus
// every outcome's glyph: what the browser must have a font for.
func pageSymbols(t *testing.T, pages ...string) []string {
	t.Helper()
	var syms []string
	add := func(s string) {
		for _, r := range s {
			if r > 0x7f && !slices.Contains(syms, string(r)) {
				syms = append(syms, string(r))
			}
		}
	}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		add(string(data))
	}
	for _, o := range everyOutcome {
		add(rules.Glyph(o))
	}
	return syms
}

// glyphProbe is a page that draws each symbol on a canvas in the report's
// font stack and compares the pixels with those of a private-use code
// point, which no font has: a symbol drawn exactly like it is a box.
const glyphProbe = `<!doctype html><meta charset="utf-8"><body><script>
const font = '48px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
function px(ch) {
  const c = document.createElement('canvas'); c.width = 96; c.height = 64;
  const x = c.getContext('2d'); x.font = font; x.fillStyle = '#000'; x.fillText(ch, 4, 52);
  return Array.from(x.getImageData(0, 0, 96, 64).data).join(',');
}
const box = px('\uE000'), boxes = [];
for (const ch of SYMBOLS) if (px(ch) === box) boxes.push(ch);
document.body.setAttribute('data-boxes', JSON.stringify({probe: px('\u23F1') === box, boxes}));
</script>`

var boxesAttr = regexp.MustCompile(`data-boxes="([^"]*)"`)

// TestBrowserGlyphsRender pins issue 22's ⏱ (drawn as a box by Debian's
// Chromium): every symbol a task page, an index page and an outcome glyph
// use has a font in the browser. The probe proves itself on ⏱.
func TestBrowserGlyphsRender(t *testing.T) {
	chromiumPath(t)
	project := writeFixture(t, "Add a greeting with a test", fixtureIterations())
	page, _ := renderFixture(t, project)
	syms := pageSymbols(t, page)
	// Combining marks (ρ̄'s macron) are drawn on their base letter.
	syms = slices.DeleteFunc(syms, func(s string) bool { return s >= "\u0300" && s <= "\u036f" })
	list, err := json.Marshal(syms)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "glyphs.html")
	if err := os.WriteFile(probe, []byte(strings.Replace(glyphProbe, "SYMBOLS", string(list), 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	dump, console := browse(t, "file://"+probe, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	m := boxesAttr.FindStringSubmatch(dump)
	if m == nil {
		t.Fatalf("the probe wrote no result:\n%s", dump)
	}
	var res struct {
		Probe bool     `json:"probe"`
		Boxes []string `json:"boxes"`
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Probe {
		t.Log("⏱ renders in this browser: the probe cannot show a missing glyph here")
	}
	if len(res.Boxes) > 0 {
		t.Errorf("these symbols render as boxes in Chromium: %q", res.Boxes)
	}
	t.Logf("%d symbols checked: %s", len(syms), strings.Join(syms, " "))
}
