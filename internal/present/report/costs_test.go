package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
)

// TestIndexCostTotals: the index page sums the records' cost per UTC day
// and kind, with a total line per day.
func TestIndexCostTotals(t *testing.T) {
	usd := func(f float64) *float64 { return &f }
	day := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)
	log := history.LogResult{Total: 3, Entries: []history.Entry{
		{Kind: history.KindAdvisory, ID: "s1", TaskID: "01JA", Time: day, Outcome: "accepted", CostUSD: usd(0.012)},
		{Kind: history.KindAdvisory, ID: "s2", TaskID: "01JB", Time: day, Outcome: "accepted"},
		{Kind: history.KindTask, ID: "01JC", TaskID: "01JC", Time: day.Add(-24 * time.Hour), Outcome: "accepted", CostUSD: usd(1.25)},
	}}
	var buf bytes.Buffer
	if err := Index(&buf, IndexInput{Project: "p", Log: log, Now: day}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<td class="nowrap">2026-12-04</td><td>advisory</td><td class="num">2</td><td class="num">$0.0120</td><td class="muted">1 without a recorded cost</td>`,
		`<tr class="total"><td class="nowrap">2026-12-04</td><td><strong>total</strong></td><td class="num">2</td><td class="num">$0.0120</td>`,
		`<td class="nowrap">2026-12-03</td><td>task</td><td class="num">1</td><td class="num">$1.2500</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the index lacks %s", want)
		}
	}
	if strings.Index(page, "2026-12-04</td><td>advisory") > strings.Index(page, "2026-12-03</td><td>task") {
		t.Error("days are not newest first")
	}
}
