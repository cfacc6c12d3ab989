package history

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Widths of the log table's summary column: what is left of the terminal
// width after the other columns, within these bounds.
const (
	minSummaryWidth     = 20
	defaultSummaryWidth = 60
)

// RenderLogTable renders the log as aligned columns for a terminal,
// newest first, with each id shortened to its short id (ShortIDs). width is the
// terminal's width in columns (0 when unknown); the summary is cut to fit.
func RenderLogTable(r LogResult, width int) string {
	if len(r.Entries) == 0 {
		return "No tribunal tasks or advisory verdicts are recorded for this project yet.\n"
	}
	head := []string{"WHEN (UTC)", "KIND", "OUTCOME", "SCORE", "ITER", "COST", "ID", "SUMMARY"}
	right := []bool{false, false, false, true, true, true, false, false}
	rows := [][]string{head}
	for _, e := range r.Entries {
		iters := "—"
		if e.Iterations != nil {
			iters = fmt.Sprint(*e.Iterations)
		}
		outcome := rules.Glyph(e.Outcome) + " " + rules.OutcomeWords(e.Outcome)
		if e.Source != "" {
			outcome += "*"
		}
		id := e.ShortID
		if id == "" {
			id = e.ID
		}
		rows = append(rows, []string{e.Time.UTC().Format(timeLayout), e.Kind, outcome, score(e.FinalScore),
			iters, cost(e.CostUSD), safetext.Inline(id, 40), e.Summary})
	}
	widths := make([]int, len(head))
	for _, row := range rows {
		for i, c := range row[:len(row)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	used := 0
	for _, w := range widths[:len(widths)-1] {
		used += w + 2
	}
	summary := defaultSummaryWidth
	if width > 0 {
		summary = max(width-used, minSummaryWidth)
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for i, c := range row[:len(row)-1] {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
			line.WriteString("  ")
		}
		line.WriteString(cutRunes(safetext.Inline(row[len(row)-1], 0), summary))
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	for _, e := range r.Entries {
		if e.Source != "" {
			b.WriteString("* outcome from the events log (the task's session-complete.json is missing)\n")
			break
		}
	}
	if r.Total > len(r.Entries) {
		fmt.Fprintf(&b, "%d of %d records; --limit 0 lists them all.\n", len(r.Entries), r.Total)
	}
	if len(r.Kept) > 0 {
		b.WriteString(keptLine(r.Kept, "") + "\n")
	}
	return b.String()
}

// cutRunes cuts s to at most n characters, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
