package main

import (
	"runtime/debug"
	"time"
)

// A command's first moments allocate a few megabytes — most of them the
// JSON Schema library's metaschemas, compiled at init — and a short
// command (a cached review, a lookup) exits soon after: a collection then
// marks the whole young heap to free nothing the exit would not, and cost
// a cached review a tenth of its time. So the collector waits
// collectorGrace, within collectorHeap bytes (a burst past it collects as
// usual), then runs as configured. A GOGC or GOMEMLIMIT the user set is
// left alone.
const (
	collectorGrace = 100 * time.Millisecond
	collectorHeap  = 256 << 20
)

// deferCollector starts the grace period; after runs the restore when it
// ends (time.AfterFunc; tests pass their own).
func deferCollector(getenv func(string) string, after func(time.Duration, func())) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(collectorHeap)
	after(collectorGrace, func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}

// afterFunc is time.AfterFunc with its timer dropped: nothing stops it.
func afterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }
