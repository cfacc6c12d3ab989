package main

import (
	"math"
	"runtime/debug"
	"testing"
	"time"
)

// TestDeferCollector: the collector is off, within a heap limit, until
// the grace period ends, then back as it was; a GOGC or GOMEMLIMIT the
// user set is never touched.
func TestDeferCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	var restore func()
	var grace time.Duration
	deferCollector(func(string) string { return "" }, func(d time.Duration, f func()) { grace, restore = d, f })
	if restore == nil || grace != collectorGrace {
		t.Fatalf("no restore scheduled after %v (got %v)", collectorGrace, grace)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("during the grace period GC percent is %d, want off (-1)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != collectorHeap {
		t.Errorf("during the grace period the memory limit is %d, want %d", l, collectorHeap)
	}
	restore()
	if p := debug.SetGCPercent(-1); p != 100 {
		t.Errorf("after the grace period GC percent is %d, want 100", p)
	}
	debug.SetGCPercent(100)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("after the grace period the memory limit is %d, want none", l)
	}

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		called := false
		deferCollector(func(k string) string {
			if k == env {
				return "50"
			}
			return ""
		}, func(time.Duration, func()) { called = true })
		if p := debug.SetGCPercent(-1); p != 100 || called {
			t.Errorf("with %s set: GC percent %d, restore scheduled %v; want it untouched", env, p, called)
		}
		debug.SetGCPercent(100)
	}
}
