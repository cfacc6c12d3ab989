package warncap

import (
	"fmt"
	"testing"
)

func TestCapper(t *testing.T) {
	for _, tc := range []struct {
		n     int
		lines int
		last  string
	}{
		{0, 0, ""},
		{1, 1, "w1"},
		{Max, Max, fmt.Sprintf("w%d", Max)},
		{Max + 1, Max + 1, "f.json: … and 1 more warning(s) like these"},
		{40000, Max + 1, fmt.Sprintf("f.json: … and %d more warning(s) like these", 40000-Max)},
	} {
		var got []string
		c := New(func(s string) { got = append(got, s) }, "f.json")
		for i := 1; i <= tc.n; i++ {
			c.Warn(fmt.Sprintf("w%d", i))
		}
		c.Flush()
		if len(got) != tc.lines || (tc.lines > 0 && got[len(got)-1] != tc.last) {
			t.Errorf("%d warnings: printed %d lines ending %q, want %d ending %q", tc.n, len(got), got[len(got)-1:], tc.lines, tc.last)
		}
		// Flush starts afresh.
		c.Warn("again")
		c.Flush()
		if got[len(got)-1] != "again" {
			t.Errorf("after Flush: %q", got[len(got)-1])
		}
	}
}

func TestList(t *testing.T) {
	items := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprint(i))
		}
		return s
	}
	if got := List(items(3), ", "); got != "0, 1, 2" {
		t.Errorf("got %q", got)
	}
	want := "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 39990 more"
	if got := List(items(40000), ", "); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
