package safetext

import (
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{-time.Hour, "just now"},
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1 min ago"},
		{59*time.Minute + 59*time.Second, "59 min ago"},
		{time.Hour, "1 h ago"},
		{2*time.Hour + 30*time.Minute, "2 h ago"},
		{47 * time.Hour, "47 h ago"},
		{48 * time.Hour, "2 d ago"},
		{71 * time.Hour, "2 d ago"},
		{72 * time.Hour, "3 d ago"},
		{400 * 24 * time.Hour, "400 d ago"},
	}
	for _, c := range cases {
		if got := Age(c.d); got != c.want {
			t.Errorf("Age(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
