package claude

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// Parse fills res from a child's stdout. A `--output-format json` result
// object is read field by field; anything else is kept as plain text, which
// is what older CLIs and thin wrappers print. Empty output is ErrNoOutput.
func Parse(stdout []byte, res *Result) error {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 {
		return ErrNoOutput
	}
	// gjson validates recursively: the depth check comes first, and output
	// nested too deeply is kept as text, which no verdict parse accepts.
	if nesting.JSON(trimmed) != nil || !gjson.ValidBytes(trimmed) || gjson.GetBytes(trimmed, "type").String() != "result" {
		res.Text = string(trimmed)
		return nil
	}
	res.Envelope = true
	f := gjson.GetManyBytes(trimmed, "result", "structured_output", "is_error",
		"subtype", "terminal_reason", "total_cost_usd", "num_turns",
		"usage.input_tokens", "usage.output_tokens",
		"usage.cache_creation_input_tokens", "usage.cache_read_input_tokens")
	if f[0].Type == gjson.String {
		res.Text = f[0].String()
	}
	if f[1].IsObject() || f[1].IsArray() {
		res.Structured = json.RawMessage(f[1].Raw)
	}
	res.IsError = f[2].Type == gjson.True
	res.Subtype = f[3].String()
	res.TerminalReason = f[4].String()
	// A cost too large for a float64 parses as +Inf, which no event or
	// file can record; it is treated as unreported rather than infinite.
	if v := f[5].Float(); f[5].Type == gjson.Number && v >= 0 && !math.IsInf(v, 1) {
		res.CostUSD = &v
	}
	res.NumTurns = int(max(f[6].Int(), 0))
	if f[7].Exists() || f[8].Exists() {
		// gjson clamps each count to MaxInt64; the sum saturates instead
		// of wrapping negative, which the events would refuse.
		in, out := saturatedSum(f[7], f[9], f[10]), saturatedSum(f[8])
		tokens := int(min(in, math.MaxInt64-out, math.MaxInt) + min(out, math.MaxInt))
		res.Tokens = &tokens
		inTokens, outTokens := int(min(in, math.MaxInt)), int(min(out, math.MaxInt))
		res.InputTokens, res.OutputTokens = &inTokens, &outTokens
	}
	return nil
}

// saturatedSum adds the positive counts among us, stopping at
// MaxInt64 (gjson clamps each to it) instead of wrapping negative.
func saturatedSum(us ...gjson.Result) int64 {
	var n int64
	for _, u := range us {
		if c := u.Int(); u.Type == gjson.Number && c > 0 {
			n = min(n, math.MaxInt64-c) + c
		}
	}
	return n
}
