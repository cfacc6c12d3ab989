package claude

import (
	"strings"
	"testing"
)

// A result nested millions deep is plain text, not a crash: gjson's
// validation recursed once per level and overflowed the stack.
func TestParseDeepOutputIsText(t *testing.T) {
	out := []byte(`{"type":"result","structured_output":` + strings.Repeat("[", 12<<20))
	var res Result
	if err := Parse(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Envelope || len(res.Text) != len(out) {
		t.Fatalf("envelope %v, text of %d bytes", res.Envelope, len(res.Text))
	}
}
