package history

import (
	"math"
	"testing"
)

// TestTableCost: a known family is priced from its list price and the
// role's typical tokens; another family, or the CLI's default model, is
// not priced.
func TestTableCost(t *testing.T) {
	for _, tc := range []struct {
		role, model string
		want        float64
		ok          bool
	}{
		{"judge", "claude-opus-4-7", (30000*5 + 1500*25) / 1e6, true},
		{"judge", "claude-sonnet-4-6", (30000*3 + 1500*15) / 1e6, true},
		{"meta", "claude-haiku-4-5", (8000*1 + 800*5) / 1e6, true},
		{"actor", "claude-sonnet-4-6", (60000*3 + 4000*15) / 1e6, true},
		{"judge", "gpt-5", 0, false},
		{"judge", "", 0, false},
		{"verify", "claude-opus-4-7", 0, false},
	} {
		got, _, ok := TableCost(tc.role, tc.model)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("TableCost(%s, %s) = %v, %v; want %v, %v", tc.role, tc.model, got, ok, tc.want, tc.ok)
		}
	}
}
