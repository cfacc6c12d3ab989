package history

import (
	"fmt"
	"slices"
	"strings"
)

// CostTotal is what one kind of record cost on one UTC day: the sum of
// the costs recorded, how many records there were and how many of them
// recorded no cost.
type CostTotal struct {
	Day     string  `json:"day"`
	Kind    string  `json:"kind"`
	USD     float64 `json:"cost_usd"`
	Records int     `json:"records"`
	NoCost  int     `json:"without_cost,omitempty"`
}

// CostTotals sums entries' costs per UTC day and kind (task, review,
// advisory), newest day first, kinds in name order.
func CostTotals(entries []Entry) []CostTotal {
	idx := map[[2]string]int{}
	var out []CostTotal
	for _, e := range entries {
		key := [2]string{e.Time.UTC().Format("2006-01-02"), e.Kind}
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, CostTotal{Day: key[0], Kind: key[1]})
		}
		out[i].Records++
		if e.CostUSD == nil {
			out[i].NoCost++
			continue
		}
		out[i].USD += *e.CostUSD
	}
	slices.SortFunc(out, func(a, b CostTotal) int {
		if c := strings.Compare(b.Day, a.Day); c != 0 {
			return c
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return out
}

// RenderCostTotals is CostTotals as text: one line per day and kind, and
// each day's total.
func RenderCostTotals(ts []CostTotal) string {
	if len(ts) == 0 {
		return "No tribunal tasks or advisory verdicts are recorded for this project yet.\n"
	}
	var b strings.Builder
	b.WriteString("DAY (UTC)   KIND      RECORDS  COST\n")
	day, sum := "", 0.0
	flush := func() {
		if day != "" {
			fmt.Fprintf(&b, "%-10s  %-8s  %7s  $%.4f\n", day, "total", "", sum)
		}
	}
	for _, t := range ts {
		if t.Day != day {
			flush()
			day, sum = t.Day, 0
		}
		sum += t.USD
		note := ""
		if t.NoCost > 0 {
			note = fmt.Sprintf(" (%d without a recorded cost)", t.NoCost)
		}
		fmt.Fprintf(&b, "%-10s  %-8s  %7d  $%.4f%s\n", t.Day, safeKind(t.Kind), t.Records, t.USD, note)
	}
	flush()
	return b.String()
}

func safeKind(k string) string {
	if len(k) > 8 {
		return k[:8]
	}
	return k
}
