// Package mdterm renders the Markdown tribunal writes (headings, emphasis,
// code spans, quotes, fences and pipe tables) as plain aligned text for a
// terminal.
package mdterm

import (
	"strings"
	"unicode/utf8"
)

// Render turns md, as tribunal's summaries and show pages write it, into
// text for a terminal of width columns (0: unknown): headings lose their
// hashes and gain a rule, **bold** and `code` lose their marks, pipe
// tables become aligned columns, quotes are set off with a bar and fenced
// blocks are indented. Quoted and fenced text — model and repository
// output — is kept as it is, marks and all. Piped output never comes
// here: it stays Markdown.
func Render(md string, width int) string {
	lines := strings.Split(md, "\n")
	var out []string
	fenced := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "```"):
			fenced = !fenced
		case fenced:
			out = append(out, "    "+l)
		case strings.HasPrefix(l, "|"):
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			out = append(out, table(lines[i:j], width)...)
			i = j - 1
		case strings.HasPrefix(l, "> ") || l == ">":
			out = append(out, "  │ "+strings.TrimPrefix(strings.TrimPrefix(l, ">"), " "))
		case heading(l) > 0:
			text := inline(strings.TrimSpace(l[heading(l):]))
			out = append(out, text)
			if heading(l)-1 <= 2 {
				out = append(out, strings.Repeat("─", min(utf8.RuneCountInString(text), ruleWidth(width))))
			}
		default:
			out = append(out, inline(l))
		}
	}
	return strings.Join(out, "\n")
}

// heading is the length of l's heading marker ("## " is 3), 0 when l is
// no heading.
func heading(l string) int {
	n := 0
	for n < len(l) && n < 6 && l[n] == '#' {
		n++
	}
	if n == 0 || n >= len(l) || l[n] != ' ' {
		return 0
	}
	return n + 1
}

func ruleWidth(width int) int {
	if width <= 0 {
		return 80
	}
	return width
}

// inline drops the emphasis and code-span marks of one line of prose.
func inline(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	if strings.Count(s, "`")%2 == 0 {
		s = strings.ReplaceAll(s, "`", "")
	}
	return s
}

// table aligns a pipe table's cells; the separator row becomes a rule
// under the header. With a known width the last column is cut to fit.
func table(rows []string, width int) []string {
	var cells [][]string
	header := -1
	for _, r := range rows {
		c := splitRow(r)
		if isSeparator(c) {
			header = len(cells) - 1
			continue
		}
		cells = append(cells, c)
	}
	n := 0
	for _, c := range cells {
		n = max(n, len(c))
	}
	widths := make([]int, n)
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	if width > 0 && n > 0 {
		used := 0
		for _, w := range widths[:n-1] {
			used += w + 2
		}
		widths[n-1] = max(min(widths[n-1], width-used), min(widths[n-1], 10))
	}
	var out []string
	for r, row := range cells {
		var b strings.Builder
		for i := range n {
			c := ""
			if i < len(row) {
				c = cut(row[i], widths[i])
			}
			b.WriteString(c)
			if i < n-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
		if r == header {
			total := 0
			for _, w := range widths {
				total += w + 2
			}
			out = append(out, strings.Repeat("─", total-2))
		}
	}
	return out
}

// splitRow splits "| a | b \| c |" into its cells, unescaping "\|".
func splitRow(r string) []string {
	r = strings.TrimSpace(r)
	r = strings.TrimPrefix(r, "|")
	if strings.HasSuffix(r, "|") && !strings.HasSuffix(r, `\|`) {
		r = r[:len(r)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(r); i++ {
		switch {
		case r[i] == '\\' && i+1 < len(r) && r[i+1] == '|':
			cur.WriteByte('|')
			i++
		case r[i] == '|':
			cells = append(cells, inline(strings.TrimSpace(cur.String())))
			cur.Reset()
		default:
			cur.WriteByte(r[i])
		}
	}
	return append(cells, inline(strings.TrimSpace(cur.String())))
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return len(cells) > 0
}

// cut shortens s to n characters, marking the cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}
