package history

import (
	"strings"
	"testing"
	"time"
)

func TestCostTotals(t *testing.T) {
	usd := func(f float64) *float64 { return &f }
	day1 := time.Date(2026, 12, 3, 23, 30, 0, 0, time.UTC)
	day2 := time.Date(2026, 12, 4, 0, 30, 0, 0, time.FixedZone("CET", 3600)) // 2026-12-03 23:30 UTC
	day3 := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Kind: KindAdvisory, Time: day3, CostUSD: usd(0.01)},
		{Kind: KindAdvisory, Time: day3, CostUSD: usd(0.02)},
		{Kind: KindTask, Time: day3, CostUSD: usd(1.5)},
		{Kind: KindAdvisory, Time: day1, CostUSD: usd(0.5)},
		{Kind: KindAdvisory, Time: day2},
	}
	got := CostTotals(entries)
	want := []CostTotal{
		{Day: "2026-12-04", Kind: KindAdvisory, USD: 0.03, Records: 2},
		{Day: "2026-12-04", Kind: KindTask, USD: 1.5, Records: 1},
		{Day: "2026-12-03", Kind: KindAdvisory, USD: 0.5, Records: 2, NoCost: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("totals %+v", got)
	}
	for i := range want {
		g := got[i]
		if g.Day != want[i].Day || g.Kind != want[i].Kind || g.Records != want[i].Records || g.NoCost != want[i].NoCost || int(g.USD*1e6+0.5) != int(want[i].USD*1e6+0.5) {
			t.Errorf("total %d = %+v, want %+v", i, g, want[i])
		}
	}
	text := RenderCostTotals(got)
	for _, line := range []string{"2026-12-04  advisory        2  $0.0300", "2026-12-04  total              $1.5300", "2026-12-03  advisory        2  $0.5000 (1 without a recorded cost)"} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("no line %q in\n%s", line, text)
		}
	}
}
