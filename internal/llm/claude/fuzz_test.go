package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
)

// FuzzClaudeParse feeds arbitrary bytes as a child's stdout. Parse must not
// panic; empty output is ErrNoOutput and nothing else is an error; plain
// text is kept whole; and from a result envelope every number that reaches
// an event (cost, tokens, turns) is one the event schema accepts, and the
// structured output, when kept, is a JSON object or array.
func FuzzClaudeParse(f *testing.F) {
	f.Add([]byte(`{"type":"result","result":"x","structured_output":{"score":1},"total_cost_usd":0.1,"usage":{"input_tokens":3,"output_tokens":4}}`))
	f.Fuzz(func(t *testing.T, stdout []byte) {
		var res Result
		err := Parse(stdout, &res)
		trimmed := bytes.TrimSpace(stdout)
		if len(trimmed) == 0 {
			if !errors.Is(err, ErrNoOutput) || !reflect.DeepEqual(res, Result{}) {
				t.Fatalf("empty output: %v, %+v", err, res)
			}
			return
		}
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if !res.Envelope {
			if res.Text != string(trimmed) || !reflect.DeepEqual(res, Result{Text: res.Text}) {
				t.Fatalf("plain text not kept whole: %+v", res)
			}
			return
		}
		if s := res.Structured; s != nil && (!json.Valid(s) || (s[0] != '{' && s[0] != '[')) {
			t.Fatalf("structured output %q is not an object or array", s)
		}
		if c := res.CostUSD; c != nil && !(*c >= 0 && !math.IsInf(*c, 0)) {
			t.Fatalf("cost %v is not a finite number >= 0", *c)
		}
		if n := res.Tokens; n != nil && *n < 0 {
			t.Fatalf("tokens %d < 0", *n)
		}
		if res.NumTurns < 0 {
			t.Fatalf("num_turns %d < 0", res.NumTurns)
		}
	})
}
