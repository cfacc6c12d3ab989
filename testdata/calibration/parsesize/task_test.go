package parsesize

import (
	"math"
	"testing"
)

func TestParseUnits(t *testing.T) {
	for in, want := range map[string]int64{
		"1MB": 1 << 20, "3GB": 3 << 30, "10kb": 10 << 10, "2Mb": 2 << 20, "1gB": 1 << 30,
		"7b":                   7,
		"8589934591GB":         8589934591 << 30, // the largest whole number of GB in an int64
		"9223372036854775807B": math.MaxInt64,
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"-1KB", "-5B", "8589934592GB", "9007199254740992KB", "9223372036854775808B"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %d, no error", in, got)
		}
	}
}
