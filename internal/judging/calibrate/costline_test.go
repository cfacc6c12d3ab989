package calibrate

import "testing"

// TestCostLine holds the cost sentence to English when the model CLI
// reported no cost: no figure is ever printed as "unknown".
func TestCostLine(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name string
		ct   CostTime
		want string
	}{
		{"all known", CostTime{PaidUSD: f(0.06), CachedUSD: f(0.01), MeanCaseUSD: f(0.0175), Judged: 3, Cached: 1},
			"Cost: $0.0600 paid in this run, $0.0100 reused from the cache; $0.0175 per judging on average"},
		{"paid not reported", CostTime{CachedUSD: f(0.06), MeanCaseUSD: f(0.015), Judged: 4, Cached: 4},
			"Cost: not reported by the model CLI for this run, $0.0600 reused from the cache; $0.0150 per judging on average"},
		{"nothing reported", CostTime{Judged: 4},
			"Cost: not reported by the model CLI for this run, nothing reused from the cache"},
		{"cached cost not recorded", CostTime{PaidUSD: f(0), MeanCaseUSD: f(0), Judged: 2, Cached: 2},
			"Cost: $0.0000 paid in this run, not recorded for the 2 judging(s) reused from the cache; $0.0000 per judging on average"},
		{"all from the cache", CostTime{CachedUSD: f(0.02), MeanCaseUSD: f(0.01), Cached: 2},
			"Cost: nothing paid in this run, $0.0200 reused from the cache; $0.0100 per judging on average"},
	} {
		if got := tc.ct.costLine(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
