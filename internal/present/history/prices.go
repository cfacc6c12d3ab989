package history

import "strings"

// Price is a model's list price in US dollars per million tokens.
type Price struct {
	InputPerM, OutputPerM float64
}

// prices is the table the dry run falls back on when a project has no
// recorded call of a role and model (spec §8.12): Anthropic's list prices
// per family, matched on the model name's family word, so that a new
// version of a family is priced like the last one. A model of another
// family is not priced.
var prices = []struct {
	family string
	price  Price
}{
	{"opus", Price{InputPerM: 5, OutputPerM: 25}},
	{"sonnet", Price{InputPerM: 3, OutputPerM: 15}},
	{"haiku", Price{InputPerM: 1, OutputPerM: 5}},
}

// typicalTokens is what a call of each role typically reads and writes
// (prompt, tool results and the answer), measured as the order of
// magnitude of recorded calls: the actor reads the repository, a judge
// the diff and the files it opens, the meta-judge only the verdicts.
var typicalTokens = map[string]struct{ in, out float64 }{
	"actor": {in: 60000, out: 4000},
	"judge": {in: 30000, out: 1500},
	"meta":  {in: 8000, out: 800},
}

// TableCost estimates one call of role on model from the price table; ok
// is false when the table does not know the model's family (or the role).
func TableCost(role, model string) (usd float64, p Price, ok bool) {
	tok, known := typicalTokens[role]
	if !known {
		return 0, Price{}, false
	}
	m := strings.ToLower(model)
	for _, e := range prices {
		if strings.Contains(m, e.family) {
			return (tok.in*e.price.InputPerM + tok.out*e.price.OutputPerM) / 1e6, e.price, true
		}
	}
	return 0, Price{}, false
}
