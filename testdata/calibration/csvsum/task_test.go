package csvsum

import (
	"strings"
	"testing"
)

func TestSumTask(t *testing.T) {
	got, err := Sum(strings.NewReader("name,amount\na,1\nb,\nc,2\n"), 1, true)
	if err != nil || got != 3 {
		t.Fatalf("Sum with header and an empty cell = %v, %v; want 3", got, err)
	}
	got, err = Sum(strings.NewReader("a,4\nb,5\n"), 1, false)
	if err != nil || got != 9 {
		t.Fatalf("Sum without header = %v, %v; want 9", got, err)
	}
	for _, tc := range []struct {
		in   string
		col  int
		line string
	}{
		{"h,v\na,1\nb,oops\n", 1, "line 3"},
		{"h,v\na,1\nb\n", 1, "line 3"},
		{"h,v\na,1\n", -1, ""},
	} {
		_, err := Sum(strings.NewReader(tc.in), tc.col, true)
		if err == nil || !strings.Contains(err.Error(), tc.line) {
			t.Errorf("Sum(%q, %d): error %v, want one naming %q", tc.in, tc.col, err, tc.line)
		}
	}
}
