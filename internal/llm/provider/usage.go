package provider

import (
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// RecordUsage adds to res the token count and the cost a server reported:
// total (else in + out) tokens, and the cost in USD when given (usage.cost
// is what OpenRouter-style gateways add).
func RecordUsage(res *claude.Result, total, in, out, cost gjson.Result) {
	n := total.Int()
	if total.Type != gjson.Number {
		n = max(in.Int(), 0) + max(out.Int(), 0)
	}
	if n > 0 && n < math.MaxInt32 {
		res.Tokens = addTokens(res.Tokens, n)
	}
	if i, o := in.Int(), out.Int(); in.Type == gjson.Number && out.Type == gjson.Number &&
		i >= 0 && o >= 0 && i < math.MaxInt32 && o < math.MaxInt32 {
		res.InputTokens, res.OutputTokens = addTokens(res.InputTokens, i), addTokens(res.OutputTokens, o)
	}
	if v := cost.Float(); cost.Type == gjson.Number && v >= 0 && !math.IsInf(v, 1) {
		if res.CostUSD != nil {
			v += *res.CostUSD
		}
		res.CostUSD = &v
	}
}

// addTokens is *sum + n, for counts added up over a call's requests.
func addTokens(sum *int, n int64) *int {
	t := int(n)
	if sum != nil {
		t += *sum
	}
	return &t
}

// SystemPrompt is the role prompt for a provider without a structured-output
// tool of its own: the role text plus the instruction to answer with one
// JSON object matching the schema.
func SystemPrompt(c claude.Call) string {
	if c.JSONSchema == "" {
		return c.SystemPrompt
	}
	return strings.TrimSpace(c.SystemPrompt) + "\n\nAnswer with exactly one JSON object and nothing else (no prose, no code fence). It must satisfy this JSON Schema:\n" + c.JSONSchema
}
