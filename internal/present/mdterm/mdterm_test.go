package mdterm

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		width    int
		want     string
	}{
		{"heading gets a rule", "## tribunal ✓ accepted — score 0.90\n", 0,
			"tribunal ✓ accepted — score 0.90\n────────────────────────────────\n"},
		{"third-level heading has no rule", "### Iteration 1\n", 0, "Iteration 1\n"},
		{"bold and code marks go", "**Task:** run `tribunal-session show X --diff`", 0,
			"Task: run tribunal-session show X --diff"},
		{"an odd backtick stays", "a ` lone tick", 0, "a ` lone tick"},
		{"table aligned", "| iteration | gate |\n|---|---|\n| 1 | blocked \\| retried |\n| 10 | passed |\n", 0,
			"iteration  gate\n────────────────────────────\n1          blocked | retried\n10         passed\n"},
		{"last column cut to the width", "| a | b |\n|---|---|\n| x | " + strings.Repeat("y", 40) + " |", 20,
			"a  b\n────────────────────\nx  yyyyyyyyyyyyyyyy…"},
		{"quotes keep their text", "> **not bold** from a model", 0, "  │ **not bold** from a model"},
		{"fences keep their text", "```\n**x** `y`\n```\nafter", 0, "    **x** `y`\nafter"},
		{"not a heading", "#hashtag and # alone", 0, "#hashtag and # alone"},
	} {
		if got := Render(tc.md, tc.width); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
