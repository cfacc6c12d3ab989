package cmdjudge

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDisplay(t *testing.T) {
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "./..."}, "`go test ./...`"},
		{[]string{"sh", "-c", "echo x; exit 3"}, "`sh -c \"echo x; exit 3\"`"},
		{[]string{"npm", "run", ""}, "`npm run \"\"`"},
		{[]string{"echo", "$HOME"}, "`echo \"$HOME\"`"},
		{[]string{"x", strings.Repeat("a", 200)}, "`x " + strings.Repeat("a", 115) + "…`"},
	}
	for _, c := range cases {
		if got := display(c.argv); got != c.want {
			t.Errorf("display(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

func TestLastLines(t *testing.T) {
	cases := []struct {
		name   string
		out    string
		budget int
		want   string
	}{
		{"empty", "", 100, ""},
		{"only blank lines", "\n\n  \n", 100, ""},
		{"fits", "a\nb\nc\n", 100, "a\nb\nc"},
		{"keeps the end, whole lines", "first line\nsecond\nthird\n", 12, "second\nthird"},
		{"one long last line is cut from its start", "short\n" + strings.Repeat("x", 50), 20, "…" + strings.Repeat("x", 17)},
		{"trailing spaces trimmed", "FAIL   \n\n", 100, "FAIL"},
		{"ansi colours removed", "\x1b[31m--- FAIL\x1b[0m: TestX\n", 100, "--- FAIL: TestX"},
		{"osc title removed", "\x1b]0;title\x07ok\n", 100, "ok"},
		{"progress line shows its final state", "building 10%\rbuilding 50%\rbuilt\n", 100, "built"},
		{"crlf line ends", "a\r\nb\r\n", 100, "a\nb"},
		{"control characters dropped, tabs kept", "a\x00b\tc\x07\n", 100, "ab\tc"},
		{"invalid utf-8 replaced", "bad \xff byte\n", 100, "bad \uFFFD byte"},
		{"zero budget", "x\n", 0, ""},
	}
	for _, c := range cases {
		got := lastLines(c.out, c.budget)
		if got != c.want {
			t.Errorf("%s: lastLines = %q, want %q", c.name, got, c.want)
		}
		if len(got) > c.budget || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes (budget %d), valid UTF-8 %v", c.name, len(got), c.budget, utf8.ValidString(got))
		}
	}
}
