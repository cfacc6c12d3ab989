package parsesize

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"0B": 0, "512B": 512, "1KB": 1024, " 4KB ": 4096} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "KB", "12XB"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}
