package env

import (
	"testing"
	"time"
)

// TestWithDefaults: every unset sink discards, the clock and entropy are
// real, and what the caller set is kept.
func TestWithDefaults(t *testing.T) {
	var got []string
	e := Env{Warn: func(s string) { got = append(got, s) }}.WithDefaults()
	e.Progress("p")
	e.Note("n")
	e.Relay("r")
	e.Warn("w")
	if len(got) != 1 || got[0] != "w" {
		t.Errorf("the caller's Warn got %q, want only its own line", got)
	}
	if e.Getenv("HOME") != "" || e.Rand == nil {
		t.Error("an unset Getenv must read nothing, and Rand must be set")
	}
	if d := time.Since(e.Now()); d < 0 || d > time.Minute {
		t.Errorf("Now is not the real clock: %v off", d)
	}
	fixed := time.Unix(1, 0)
	if e := (Env{Now: func() time.Time { return fixed }}).WithDefaults(); !e.Now().Equal(fixed) {
		t.Error("a caller's clock was replaced")
	}
}
